import { Worker } from 'node:worker_threads';
import { keyPragmas, sqliteLocation } from '../platform/sqlcipher.js';

/**
 * What the checkpoint thread runs: a keyed connection of its own to the
 * replica's file and, on each request, a PASSIVE checkpoint, then a TRUNCATE
 * one only when that left nothing behind. Its busy timeout is zero, so it
 * never waits on the app's connections: a TRUNCATE that finds a reader gives
 * up at once and is tried again after a pause on this thread (a few times);
 * anything left is folded by a later request.
 * Plain JavaScript evaluated as the thread's script, so the bundled app, the
 * browser host and the tests run it without a file of its own to locate; the
 * module is loaded from where the main process found it (sqliteLocation).
 */
const CHECKPOINT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { nativeBinding: workerData.binding, fileMustExist: true, timeout: 0 });
for (const pragma of workerData.pragmas) db.pragma(pragma);
db.prepare('SELECT count(*) FROM sqlite_master').get();
db.pragma('cache_size = -512');
const pause = new Int32Array(new SharedArrayBuffer(4));
parentPort.postMessage({ ready: true });
// One index a transaction: each holds the write lock for one build, and one cut short (the app ended) is rolled
// back whole, the earlier definition kept. Taking the lock waits on the app's writes (tried again after a pause).
function build(indexes) {
  for (const { name, sql } of indexes) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        db.exec('BEGIN IMMEDIATE');
        break;
      } catch (error) {
        if (!String(error && error.code).startsWith('SQLITE_BUSY') || attempt >= workerData.buildAttempts) throw error;
        Atomics.wait(pause, 0, 0, workerData.truncatePauseMs);
      }
    }
    try {
      const kept = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(name);
      if (kept !== sql) {
        if (kept !== undefined) db.exec('DROP INDEX ' + name);
        db.exec(sql);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
}
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  if (message && message.build) {
    try {
      build(message.build);
      parentPort.postMessage({ built: true });
    } catch (error) {
      parentPort.postMessage({ built: true, failed: String(error && error.message) });
    }
    return;
  }
  try {
    const passive = db.pragma('wal_checkpoint(PASSIVE)')[0];
    let truncated = false;
    // Emptying the log needs a moment with no reader in it: tried again for a while, never waited on.
    for (let attempt = 0; !truncated && passive.busy === 0 && passive.log === passive.checkpointed && attempt < workerData.truncateAttempts; attempt += 1) {
      if (attempt > 0) Atomics.wait(pause, 0, 0, workerData.truncatePauseMs);
      truncated = db.pragma('wal_checkpoint(TRUNCATE)')[0].busy === 0;
    }
    parentPort.postMessage({ done: true, frames: passive.checkpointed, truncated });
  } catch (error) {
    parentPort.postMessage({ done: true, failed: String(error && error.message) });
  }
});
`;

/** What one checkpoint did (tests read it; the app only asks for them). */
export interface CheckpointOutcome {
  readonly frames: number;
  readonly truncated: boolean;
  /** Set when the checkpoint ran on the main thread because the thread could not. */
  readonly onMainThread?: boolean;
}

/**
 * How long closing waits for the thread to close its connection (ms): a
 * checkpoint under way finishes first. Until it has, the writer's close would
 * not be the last one and would leave the log beside the file.
 */
const CLOSE_WAIT_MS = 10_000;
/** The same for a thread that has not said it is ready (it may be failing to start). */
const STARTING_CLOSE_WAIT_MS = 2_000;

/**
 * Tries at emptying the log after a checkpoint, and the pause between them
 * (ms, on the thread): a read under way keeps the log's frames in use, and a
 * log left full would stay its size on disk (a whole refresh) until then.
 */
const TRUNCATE_ATTEMPTS = 40;
const TRUNCATE_PAUSE_MS = 50;
/** Tries at taking the write lock for an index build (TRUNCATE_PAUSE_MS apart): about a minute of the app's writes. */
const BUILD_ATTEMPTS = 1_200;

type Message = { ready: true } | { built: true; failed?: string } | { done: true; frames?: number; truncated?: boolean; failed?: string };

/** An index to make again on the thread (kept-indexes.ts). */
export interface ThreadIndex {
  readonly name: string;
  readonly sql: string;
}

/**
 * Moves the replica's write-ahead log into its file on a worker thread, so the
 * main process never waits for a checkpoint (seconds after a full refresh of
 * 100,000 policies). The writer connection runs with `wal_autocheckpoint = 0`
 * and asks here after each commit; requests made while one runs are folded
 * into one more. A checkpoint copies committed pages only and changes what no
 * connection sees, so reads and write-throughs read the same rows whether it
 * ran or not. If the thread cannot start or fails, the checkpoint runs on the
 * main thread as before (the fallback) and that is logged once.
 */
export class WalCheckpointer {
  #worker: Worker | null;
  #ready = false;
  #running = false;
  #pending = false;
  #closed = false;
  /** The thread's end, once close was asked. */
  #closing: Promise<void> | null = null;
  #warned = false;
  #waiters: Array<(outcome: CheckpointOutcome) => void> = [];
  /** Index builds asked, answered in order (the thread runs its messages one after the other). */
  #builds: Array<(failed: string | null) => void> = [];
  readonly #fallback: () => CheckpointOutcome;
  readonly #warn: (message: string) => void;

  /**
   * @param fallback the checkpoint on the main thread's writer connection, run when the thread cannot.
   * @param warn told once when the thread could not start or failed.
   */
  constructor(file: string, key: Buffer, fallback: () => CheckpointOutcome, warn: (message: string) => void) {
    this.#fallback = fallback;
    this.#warn = warn;
    this.#worker = this.#startWorker(file, key);
  }

  #startWorker(file: string, key: Buffer): Worker | null {
    try {
      const { module, binding } = sqliteLocation();
      const worker = new Worker(CHECKPOINT_SOURCE, { eval: true, workerData: { module, binding, file, pragmas: keyPragmas(key), truncateAttempts: TRUNCATE_ATTEMPTS, truncatePauseMs: TRUNCATE_PAUSE_MS, buildAttempts: BUILD_ATTEMPTS } });
      worker.unref();
      worker.on('message', (message: Message) => this.#onMessage(message));
      worker.on('error', (error: Error) => this.#fail(error.message));
      worker.on('exit', (code) => {
        if (!this.#closed) this.#fail(`the checkpoint thread stopped (exit code ${code})`);
      });
      return worker;
    } catch (error) {
      queueMicrotask(() => this.#fail(error instanceof Error ? error.message : String(error)));
      return null;
    }
  }

  /** True while checkpoints run on the thread (false once it failed and the main thread took over). */
  get threaded(): boolean {
    return this.#worker !== null;
  }

  /** Asks for a checkpoint; resolves with what it did (callers need not wait). */
  request(): Promise<CheckpointOutcome> {
    const done = new Promise<CheckpointOutcome>((resolve) => this.#waiters.push(resolve));
    if (this.#closed) this.#settle({ frames: 0, truncated: false });
    else if (!this.#worker) this.#settle(this.#runFallback());
    else if (this.#running || !this.#ready) this.#pending = true;
    else this.#start();
    return done;
  }

  /**
   * Makes `indexes` again on the thread's connection (idx15), each in a transaction of its own; resolves with null
   * once built, or why not (the earlier definitions are then kept: they answer the same reads; the next open asks
   * again). A checkpoint asked meanwhile waits for the build.
   */
  build(indexes: readonly ThreadIndex[]): Promise<string | null> {
    if (indexes.length === 0) return Promise.resolve(null);
    if (this.#closed || !this.#worker) return Promise.resolve('the checkpoint thread is not running');
    const done = new Promise<string | null>((resolve) => this.#builds.push(resolve));
    this.#worker.postMessage({ build: indexes.map(({ name, sql }) => ({ name, sql })) });
    return done;
  }

  /**
   * Stops the thread and resolves once it has exited: its connection is then
   * closed, so the writer's close, the last one, folds the log into the file
   * as before, and nothing of the thread can open or write the file after (a
   * wipe or a removal of the folder may follow at once). A thread that has not
   * closed within CLOSE_WAIT_MS (STARTING_CLOSE_WAIT_MS before it said it was
   * ready: it may be failing to start) is terminated, and that end is awaited too.
   */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    this.#settle({ frames: 0, truncated: false });
    this.#settleBuilds('the replica was closed');
    this.#closing = worker ? this.#stop(worker) : Promise.resolve();
    return this.#closing;
  }

  async #stop(worker: Worker): Promise<void> {
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    // A thread still starting closes as soon as it has opened; one that cannot start never answers.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.#ready ? CLOSE_WAIT_MS : STARTING_CLOSE_WAIT_MS);
    });
    const outcome = await Promise.race([exited, late]);
    clearTimeout(timer);
    // Terminating ends the thread's environment, which closes its connection; its end is awaited all the same.
    if (outcome === 'late') await worker.terminate().catch(() => undefined);
    await exited;
  }

  #start(): void {
    this.#running = true;
    this.#pending = false;
    this.#worker?.postMessage('checkpoint');
  }

  #onMessage(message: Message): void {
    if ('ready' in message) {
      this.#ready = true;
      if (this.#pending) this.#start();
      return;
    }
    if ('built' in message) {
      this.#builds.shift()?.(message.failed ?? null);
      return;
    }
    this.#running = false;
    if (message.failed !== undefined) {
      this.#fail(message.failed);
      return;
    }
    if (this.#pending) {
      // Waiters asked before this one started: the next one settles them too.
      this.#start();
      return;
    }
    this.#settle({ frames: message.frames ?? 0, truncated: message.truncated ?? false });
  }

  #fail(reason: string): void {
    if (this.#closed) return;
    if (!this.#warned) {
      this.#warned = true;
      this.#warn(`the replica's checkpoint thread could not run (${reason}); checkpoints run on the main thread`);
    }
    const worker = this.#worker;
    this.#worker = null;
    this.#running = false;
    this.#pending = false;
    if (worker) void worker.terminate().catch(() => undefined);
    this.#settleBuilds(reason);
    if (this.#waiters.length > 0) this.#settle(this.#runFallback());
  }

  #runFallback(): CheckpointOutcome {
    try {
      return { ...this.#fallback(), onMainThread: true };
    } catch (error) {
      this.#warn(`the replica's checkpoint failed (${error instanceof Error ? error.message : String(error)}); the log is kept until the next one`);
      return { frames: 0, truncated: false, onMainThread: true };
    }
  }

  #settleBuilds(failed: string): void {
    const builds = this.#builds;
    this.#builds = [];
    for (const resolve of builds) resolve(failed);
  }

  #settle(outcome: CheckpointOutcome): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(outcome);
  }
}
