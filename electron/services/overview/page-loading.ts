import type { Handlers } from '../../../shared/ipc/contract.js';

/**
 * While the first page loads (from its document asked to the code it starts with served): the overview's count
 * waits between two of its statements, so the page's files are not each served behind a cold statement (issue 25,
 * overview12: in every slow launch the page's HTML came when the launch's count ended, or up to 150 ms after; each
 * request needs a few turns of the main process, and each turn waited behind one statement read from the disk).
 * Both hosts serve the page from the main process's own event loop (the browser host over loopback HTTP, the
 * Electron shell through its app:// protocol handler), so both tell this the same two points.
 *
 * The first page only: once its code is served (or it calls the main process, or maxHoldMs after it was asked,
 * for a page that never asks its code) nothing waits here again.
 */
export class PageLoading {
  readonly #maxHoldMs: number;
  #askedAt: number | null = null;
  #over = false;
  #waiting: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: { readonly maxHoldMs?: number } = {}) {
    this.#maxHoldMs = options.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
  }

  /** The page's document (or the launch link that opens it) was asked for. */
  pageAsked(): void {
    if (this.#over || this.#askedAt !== null) return;
    this.#askedAt = Date.now();
    this.#timer = setTimeout(() => this.codeServed(), this.#maxHoldMs);
    this.#timer.unref?.();
  }

  /** The page has the code it starts with (served, or it calls the main process): whatever waited goes on. */
  codeServed(): void {
    if (this.#over) return;
    this.#over = true;
    if (this.#timer) clearTimeout(this.#timer);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resume of waiting) resume();
  }

  /** Resolves at once unless the first page is loading; then when its code is served. */
  loaded(): Promise<void> {
    if (this.#over || this.#askedAt === null) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

/** The handlers, each call saying that the page's code runs (both hosts: the browser host's HTTP and Electron's IPC). */
export function callsEndPageLoading(handlers: Handlers, loading: PageLoading): Handlers {
  return Object.fromEntries(
    Object.entries(handlers).map(([channel, handler]) => [
      channel,
      (input: unknown) => {
        loading.codeServed();
        return (handler as (input: unknown) => unknown)(input);
      },
    ]),
  ) as unknown as Handlers;
}

/**
 * The longest the count waits for a page's code: a page shut before it asked its code must not hold the overview
 * (the code was served 65-91 ms after the page's start at load 12, several hundred ms at load 35).
 */
export const DEFAULT_MAX_HOLD_MS = 3_000;
