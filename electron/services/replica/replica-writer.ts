import { Worker } from 'node:worker_threads';
import { keyPragmas, sqliteLocation } from '../platform/sqlcipher.js';

/**
 * What the writer thread runs: a connection of its own to the replica's file,
 * and the few steps of a full refresh (begin, rows, commit or roll back). It is
 * plain JavaScript evaluated as the thread's script, so the same code runs in
 * the bundled app, the browser host and the tests without a file of its own to
 * locate (inside app.asar or not); the SQL and the rows come from the main
 * thread, which keeps the replica's logic in one place.
 */
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db = null;
let upsertRow = null;
let upsertBody = null;
const steps = {
  open({ file, pragmas, sql }) {
    db = new Database(file, { nativeBinding: workerData.binding });
    for (const pragma of pragmas) db.pragma(pragma);
    upsertRow = db.prepare(sql.upsertRow);
    upsertBody = db.prepare(sql.upsertBody);
  },
  exec({ sql }) {
    db.exec(sql);
  },
  run({ sql, params }) {
    db.prepare(sql).run(...params);
  },
  rows({ rows }) {
    for (const [row, body] of rows) upsertBody.run(upsertRow.get(row).rid, body);
  },
  rollback() {
    if (db && db.inTransaction) db.exec('ROLLBACK');
  },
  pragma({ sql }) {
    return db.pragma(sql);
  },
  close() {
    if (db) db.close();
    db = null;
  },
};
parentPort.on('message', (message) => {
  try {
    parentPort.postMessage({ id: message.id, ok: true, result: steps[message.step](message) ?? null });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, message: String(error && error.message), code: error && error.code });
  }
});
`;

/** The statements a refresh runs per policy: its slim row (returning its rid), then its body. */
export interface WriterStatements {
  readonly upsertRow: string;
  readonly upsertBody: string;
}

/** One policy as the writer stores it: the slim row's named values and the whole record as JSON. */
export type WriterRow = readonly [Record<string, string | number | null>, string];

type Step =
  | { step: 'open'; file: string; pragmas: string[]; sql: WriterStatements }
  | { step: 'exec'; sql: string }
  | { step: 'run'; sql: string; params: readonly (string | number | null)[] }
  | { step: 'rows'; rows: readonly WriterRow[] }
  | { step: 'rollback' }
  | { step: 'pragma'; sql: string }
  | { step: 'close' };

interface Answer {
  readonly id: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly message?: string;
  readonly code?: string;
}

/**
 * The replica's writer thread (node:worker_threads), as Signal Desktop keeps
 * SQLCipher's long work off the main thread: a full refresh is written there,
 * in one transaction on a connection of its own, so the main process stays
 * free to answer the window while 100,000 rows are written, indexed and
 * checkpointed (before: stalls of seconds). Steps are answered in order; a
 * failed step rejects with the SQLite code, as a failure on the main thread
 * would (so a damaged copy is still recognised).
 */
export class ReplicaWriter {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #next = 0;
  #failed: Error | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (answer: Answer) => {
      const waiting = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if (answer.ok) waiting?.resolve(answer.result);
      else waiting?.reject(Object.assign(new Error(answer.message ?? 'the replica writer failed'), answer.code ? { code: answer.code } : {}));
    });
    const fail = (error: Error) => {
      this.#failed = error;
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the replica writer stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens its connection to the file with the key. */
  static async open(file: string, key: Buffer, cacheKib: number, sql: WriterStatements): Promise<ReplicaWriter> {
    const writer = new ReplicaWriter(new Worker(WRITER_SOURCE, { eval: true, workerData: sqliteLocation() }));
    try {
      await writer.#send({ step: 'open', file, pragmas: [...keyPragmas(key, cacheKib), 'journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON'], sql });
    } catch (error) {
      await writer.close();
      throw error;
    }
    return writer;
  }

  exec(sql: string): Promise<void> {
    return this.#send({ step: 'exec', sql }).then(() => undefined);
  }

  /** Writes a batch of policies inside the transaction under way (structured clone copies it: send a few thousand at a time). */
  run(sql: string, params: readonly (string | number | null)[]): Promise<void> {
    return this.#send({ step: 'run', sql, params }).then(() => undefined);
  }

  rows(rows: readonly WriterRow[]): Promise<void> {
    return this.#send({ step: 'rows', rows }).then(() => undefined);
  }

  rollback(): Promise<void> {
    return this.#send({ step: 'rollback' }).then(() => undefined);
  }

  pragma(sql: string): Promise<unknown> {
    return this.#send({ step: 'pragma', sql });
  }

  /** Closes the connection and ends the thread: it lives for one refresh, so no file handle outlasts it. */
  async close(): Promise<void> {
    if (!this.#failed) await this.#send({ step: 'close' }).catch(() => undefined);
    this.#failed ??= new Error('the replica writer is closed');
    await this.#worker.terminate();
  }

  #send(step: Step): Promise<unknown> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...step, id });
    });
  }
}
