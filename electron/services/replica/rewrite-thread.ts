import { Worker } from 'node:worker_threads';
import { BUSY_WAIT_MS, keyPragmas, sqliteLocation } from '../platform/sqlcipher.js';
import { CONTENT_HASH } from './refresh-diff.js';

/**
 * What the rewrite thread runs: a keyed connection of its own to the
 * replica's file, one transaction from its first message to its last (the
 * old list stays whole for every reader until the COMMIT, and a kill at any
 * point leaves it so). `begin` clears the old list inside it; each `rows`
 * message inserts what the main thread prepared; `finish` fills the
 * full-text index, puts the triggers back, writes the meta and commits.
 * Plain JavaScript evaluated as the thread's script, as the checkpoint
 * thread's (wal-checkpointer.ts): no file of its own to locate.
 */
const REWRITE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const Database = require(workerData.module);
// The record's hash is worked out here, not on the main thread (it was part of the chunks' stall there).
const hashOf = (body) => createHash(workerData.hash.algorithm).update(body).digest(workerData.hash.encoding);
let db = null;
const end = (message) => {
  try {
    if (db && db.inTransaction) db.exec('ROLLBACK');
  } catch {}
  try {
    if (db) db.close();
  } catch {}
  db = null;
  parentPort.postMessage(message);
  parentPort.close();
};
const failed = (error) => end({ failed: String(error && error.message), code: error && error.code ? String(error.code) : undefined });
let insertRow, insertBody, removeRow;
try {
  db = new Database(workerData.file, { nativeBinding: workerData.binding, fileMustExist: true, timeout: workerData.busyMs });
  for (const pragma of workerData.pragmas) db.pragma(pragma);
  db.prepare('SELECT count(*) FROM sqlite_master').get();
  db.pragma('cache_size = -' + workerData.cacheKib);
  // The log is folded by the checkpoint thread after the commit, never by this connection's COMMIT.
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('foreign_keys = ON');
  db.exec('BEGIN IMMEDIATE');
  db.exec(workerData.sql.begin);
  insertRow = db.prepare(workerData.sql.insertRow);
  insertBody = db.prepare(workerData.sql.insertBody);
  removeRow = db.prepare(workerData.sql.removeRow);
  parentPort.postMessage({ ready: true });
} catch (error) {
  failed(error);
}
parentPort.on('message', (message) => {
  if (!db) return;
  try {
    if (message.rows) {
      for (const [row, body, again] of message.rows) {
        // An id written before in this rewrite: its earlier row goes, this one takes its own place.
        if (again) removeRow.run(row.cidrId);
        row.bodyHash = hashOf(body);
        insertBody.run(insertRow.get(row).rid, body);
      }
      parentPort.postMessage({ inserted: true });
    } else if (message.finish) {
      db.exec(workerData.sql.finish);
      const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
      for (const [key, value] of message.finish.meta) meta.run(key, value);
      db.exec('COMMIT');
      end({ done: true });
    } else if (message.abort) {
      end({ aborted: true });
    }
  } catch (error) {
    failed(error);
  }
});
`;

/**
 * The SQL the thread runs: what clears the old list, inserts a row (its record's hash added as `bodyHash`) and
 * its record, removes a row by its id (`cidrId`), and ends the rewrite before its COMMIT.
 */
export interface RewriteSql {
  readonly begin: string;
  readonly insertRow: string;
  readonly insertBody: string;
  readonly removeRow: string;
  readonly finish: string;
}

/**
 * One row as the thread inserts it: the slim columns (named parameters of `insertRow`, but the hash), the
 * stored record, and whether its id was written earlier in this rewrite (that row is removed first).
 */
export type RewriteRow = readonly [Record<string, string | number | null>, string, boolean?];

type Message = { ready: true } | { inserted: true } | { done: true } | { aborted: true } | { failed: string; code?: string };

/**
 * Chunks of rows handed to the thread and not yet inserted, at most: the main
 * thread prepares rows faster than the thread writes them, and rows waiting in
 * the thread's queue are memory (a first sync of 100,000 peaked at 450 MB
 * with no bound, against the 400 MB goal).
 */
const CHUNKS_IN_FLIGHT = 4;

/** A failure of the rewrite thread's SQLite, with SQLite's code kept (the replica classifies a damaged file by it). */
export class RewriteFailure extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** True when the thread failed before it held the write transaction: nothing was written, the main thread may do it. */
    readonly beforeStart: boolean,
  ) {
    super(message);
    this.name = 'RewriteFailure';
  }
}

/**
 * A whole-list rewrite of the replica written by a worker thread with its own
 * SQLCipher connection, so the main process only prepares rows (in time
 * slices) and posts them: the SQLite work (deleting the old rows, inserting
 * 100,000, filling the full-text index, the COMMIT) never stalls it. The
 * replica's write queue keeps every other write of the app behind it; readers
 * use their own connection and see the old list until the COMMIT, then the
 * new one (its COMMIT moves the copy's commit counter: commit-version.ts).
 */
export class RewriteThread {
  readonly #worker: Worker;
  readonly #outcome: Promise<void>;
  #started = false;
  #ended = false;
  /** Settled once the thread holds its transaction (true) or failed before (the failure). */
  readonly #ready: Promise<true | RewriteFailure>;
  #inFlight = 0;
  /** Resolved when a chunk has been inserted (or the thread ended): add() waits on it when CHUNKS_IN_FLIGHT are queued. */
  #drained: (() => void) | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    let ready: (outcome: true | RewriteFailure) => void = () => undefined;
    this.#ready = new Promise((resolve) => (ready = resolve));
    this.#outcome = new Promise<void>((resolve, reject) => {
      const fail = (error: RewriteFailure) => {
        this.#ended = true;
        this.#wake();
        ready(error);
        reject(error);
      };
      worker.on('message', (message: Message) => {
        if ('ready' in message) {
          this.#started = true;
          ready(true);
        }
        else if ('inserted' in message) {
          this.#inFlight -= 1;
          this.#wake();
        }
        else if ('failed' in message) fail(new RewriteFailure(message.failed, message.code, !this.#started));
        else {
          this.#ended = true;
          this.#wake();
          ready(new RewriteFailure('the rewrite was abandoned', undefined, !this.#started));
          if ('done' in message) resolve();
          else reject(new RewriteFailure('the rewrite was abandoned', undefined, !this.#started));
        }
      });
      worker.on('error', (error: Error) => fail(new RewriteFailure(error.message, undefined, !this.#started)));
      worker.on('exit', (code) => {
        if (!this.#ended) fail(new RewriteFailure(`the rewrite thread stopped (exit code ${code})`, undefined, !this.#started));
      });
    });
    // Failures are read through finish() or abandon(); one never asked for must not be reported as unhandled.
    this.#outcome.catch(() => undefined);
  }

  /** Starts the thread; it opens the file and begins the transaction (a failure then surfaces at finish, `beforeStart`). */
  static start(file: string, key: Buffer, sql: RewriteSql, cacheKib: number): RewriteThread {
    const { module, binding } = sqliteLocation();
    const worker = new Worker(REWRITE_SOURCE, { eval: true, workerData: { module, binding, file, pragmas: keyPragmas(key), cacheKib, busyMs: BUSY_WAIT_MS, sql, hash: CONTENT_HASH } });
    return new RewriteThread(worker);
  }

  /** Resolves once the thread holds its transaction (true), or with why it could not (the file not opened, say). */
  started(): Promise<true | RewriteFailure> {
    return this.#ready;
  }

  /** Hands rows to the thread (inserted in the order given, after those before); resolves once few enough are waiting there. */
  async add(rows: readonly RewriteRow[]): Promise<void> {
    // A thread that failed (or was abandoned: the copy closed) says so to whoever hands it more, so a fetch feeding it stops.
    if (this.#ended) return this.#outcome;
    this.#worker.postMessage({ rows });
    this.#inFlight += 1;
    while (this.#inFlight >= CHUNKS_IN_FLIGHT && !this.#ended) await new Promise<void>((resolve) => (this.#drained = resolve));
  }

  #wake(): void {
    const drained = this.#drained;
    this.#drained = null;
    drained?.();
  }

  /** Ends the rewrite: the index filled, the meta written, the COMMIT; resolves once committed and the thread has closed its connection. */
  async finish(meta: ReadonlyArray<readonly [string, string]>): Promise<void> {
    if (!this.#ended) this.#worker.postMessage({ finish: { meta } });
    try {
      await this.#outcome;
    } finally {
      await this.#exited();
    }
  }

  /** Rolls the rewrite back (the old list stays) and waits for the thread to end. */
  async abandon(): Promise<void> {
    if (!this.#ended) this.#worker.postMessage({ abort: true });
    await this.#outcome.catch(() => undefined);
    await this.#exited();
  }

  async #exited(): Promise<void> {
    if (this.#worker.threadId === -1) return;
    await new Promise<void>((resolve) => {
      this.#worker.once('exit', () => resolve());
      if (this.#worker.threadId === -1) resolve();
    });
  }
}
