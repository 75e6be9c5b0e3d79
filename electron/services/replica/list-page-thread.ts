import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadContext } from '../../../shared/api/readers.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { AnswerRead } from '../api-client/answer-reading.js';
import type { UnreadAnswer } from '../api-client/api-client.js';
import { readComparedPage, type ComparedPage, type StoredHashes } from './list-page-reading.js';

/** What the main thread sends the list-page thread: a slice of the copy's hashes, or a page to read (its bytes transferred). */
export type ToListPageThread =
  | { readonly stored: readonly [ids: readonly string[], hashes: ReadonlyArray<string | null>] }
  | { readonly read: { readonly id: number; readonly status: number; readonly body: ArrayBuffer; readonly context: ReadContext; readonly withDrift: boolean } };

/** What it answers: the page read (or its failure to read, as ApiClient.read would fail), or why the reading itself threw. */
export type FromListPageThread =
  | { readonly ready: true }
  | { readonly id: number; readonly read: AnswerRead<ComparedPage> }
  | { readonly id: number; readonly error: string };

/** The copy's hashes handed to the thread this many at a time, a turn of the event loop between two slices. */
const STORED_SLICE = 2_000;

/**
 * A refresh over the copy reads its capacity list pages here, on a worker thread: each page's bytes are handed
 * over (transferred), and the thread parses them, checks them against the contract (drift), reads them tolerantly
 * and compares each row with the copy (list-page-reading.ts, the same code ApiClient.read runs), and hands back
 * each row's id and hash, with the row itself only when it differs from the copy. The main thread never runs a
 * page's JSON.parse, its zod checks, its hashing, nor collects their garbage: at 100,000 policies those were the
 * longest pieces of the main thread's turns while a person types during a refresh (bench/keystroke-refresh,
 * STALL_TRACE=1). The request stays on the main thread's client (its token, retries and deadline never leave it).
 *
 * A thread that cannot start or has stopped leaves the reading to the main thread (the same function); a page
 * handed over when the thread stops fails its read (its bytes went with it).
 */
export class ListPageThread {
  readonly #stored: StoredHashes;
  #worker: Worker | null;
  #stopped: string | null = null;
  #next = 0;
  readonly #pending = new Map<number, { resolve: (read: AnswerRead<ComparedPage>) => void; reject: (error: Error) => void }>();
  /** Pages read on the thread so far (the tests' witness that the main thread read none). */
  #readThere = 0;
  /** Settles once the thread's script listens (true) or it stopped before (false: the pages are read here). */
  readonly #ready: Promise<boolean>;
  #readyNow: (ready: boolean) => void = () => undefined;

  private constructor(stored: StoredHashes, worker: Worker | null) {
    this.#stored = stored;
    this.#worker = worker;
    this.#ready = new Promise((resolve) => (this.#readyNow = resolve));
    if (!worker) {
      this.#readyNow(false);
      return;
    }
    // Never what keeps the process alive: the refresh that owns it closes it.
    worker.unref();
    worker.on('message', (message: FromListPageThread) => {
      if ('ready' in message) {
        this.#readyNow(true);
        return;
      }
      const waiting = this.#pending.get(message.id);
      if (!waiting) return;
      this.#pending.delete(message.id);
      if ('error' in message) waiting.reject(unreadPage(message.error));
      else {
        this.#readThere += 1;
        waiting.resolve(message.read);
      }
    });
    worker.on('error', (error: Error) => this.#stop(error.message));
    worker.on('exit', (code) => this.#stop(`the list-page thread stopped (exit code ${code})`));
  }

  /** Starts the thread and hands it the copy's hashes (in slices that yield); the pages handed after are compared with them. */
  static async start(stored: StoredHashes): Promise<ListPageThread> {
    let worker: Worker | null = null;
    try {
      worker = startWorker();
    } catch {
      // No thread (its script missing from a build, say): the pages are read here, as before.
    }
    const thread = new ListPageThread(stored, worker);
    await thread.#handStored();
    return thread;
  }

  /** Reads one page's answer (its body transferred to the thread: unusable here afterwards). */
  async read(answer: UnreadAnswer): Promise<AnswerRead<ComparedPage>> {
    const ready = await this.#ready;
    const worker = this.#worker;
    if (!ready || !worker || this.#stopped !== null) return readComparedPage(answer, this.#stored);
    const id = this.#next++;
    // Transferred, not copied: a body that shares its memory with others (Node's small-buffer pool) is copied first.
    const body = answer.body.byteOffset === 0 && answer.body.byteLength === answer.body.buffer.byteLength ? answer.body : new Uint8Array(answer.body);
    const buffer = body.buffer as ArrayBuffer;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const message: ToListPageThread = { read: { id, status: answer.status, body: buffer, context: answer.context, withDrift: answer.withDrift } };
      worker.postMessage(message, [buffer]);
    });
  }

  /** Pages read on the thread so far. */
  get readThere(): number {
    return this.#readThere;
  }

  /** Ends the thread; resolves once it has stopped. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#stop('the list-page thread was closed');
    if (worker) await worker.terminate();
  }

  async #handStored(): Promise<void> {
    const entries = this.#stored.entries();
    for (;;) {
      const worker = this.#worker;
      if (!worker || this.#stopped !== null) return;
      const ids: string[] = [];
      const hashes: Array<string | null> = [];
      for (let entry = entries.next(); !entry.done; entry = entries.next()) {
        ids.push(entry.value[0]);
        hashes.push(entry.value[1]);
        if (ids.length === STORED_SLICE) break;
      }
      if (ids.length > 0) worker.postMessage({ stored: [ids, hashes] } satisfies ToListPageThread);
      if (ids.length < STORED_SLICE) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  #stop(why: string): void {
    if (this.#stopped !== null) return;
    this.#stopped = why;
    this.#readyNow(false);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const waiting of pending) waiting.reject(unreadPage(why));
  }
}

/**
 * A page the thread took and could not answer for: the app's own failure (a bug of ours, logged with why), so the
 * refresh ends with the words and kind every failed refresh has, not a bare Error read as an unknown one.
 */
function unreadPage(why: string): AppFailure {
  return new AppFailure({ kind: 'internal', message: `A page of the capacity list could not be read (${why}). The local copy was left as it was; refresh again.` });
}

/**
 * The thread from the build's bundle beside this code (dist/electron or dist/host: read as text and evaluated, so
 * it loads from inside the packaged app's archive too), or, run from the sources (tests, tsx), from its
 * TypeScript source through tsx.
 */
function startWorker(): Worker {
  const built = fileURLToPath(new URL('./list-page-thread.cjs', import.meta.url));
  if (existsSync(built)) return new Worker(readFileSync(built, 'utf8'), { eval: true });
  const source = new URL('./list-page-thread-main.ts', import.meta.url).href;
  // tsx's ES module API (its CommonJS one, which require.resolve names, cannot register the loader from an import).
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}));`;
  return new Worker(code, { eval: true });
}
