import type { Component } from 'svelte';
import { afterNextPaint } from '../lib/next-paint.js';
import { fetchFilesFewAtOnce, filesOfChunk } from './chunk-files.js';

/**
 * A view kept out of the renderer's entry script (only the shell, sign-in and
 * the overview are in it, so the first screen paints sooner): its chunk is
 * fetched on first use, or earlier by `preloadViews`, after which it
 * renders as synchronously as a view in the entry.
 */
export class LazyView<Props extends Record<string, unknown>> {
  component = $state<Component<Props> | undefined>();
  failure = $state<string | undefined>();
  #loading: Promise<void> | undefined;
  #preloading: Promise<void> | undefined;
  readonly #load: () => Promise<{ default: Component<Props> }>;
  readonly #chunk: string;

  /** `chunk`: the name the build gives the view's chunk (its file's name without the extension). */
  constructor(chunk: string, load: () => Promise<{ default: Component<Props> }>) {
    this.#chunk = chunk;
    this.#load = load;
  }

  /** Fetches the chunk once; a failed fetch (the host gone, say) can be asked again. */
  load(): Promise<void> {
    this.#loading ??= this.#load().then(
      (module) => {
        this.component = module.default;
        this.failure = undefined;
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.failure = error instanceof Error ? error.message : String(error);
      },
    );
    return this.#loading;
  }

  /**
   * Fetches the chunk's files a few at a time (`FILES_AT_ONCE`), at low priority, then loads it (then from
   * memory): in the browser host the page has six connections to the host, one held by the event stream, and a
   * person's IPC call must never wait behind a preload for one (issue 28). Opened meanwhile, the view is fetched at
   * once by `load`.
   */
  preload(): Promise<void> {
    this.#preloading ??= (async () => {
      await fetchFilesFewAtOnce(filesOfChunk(this.#chunk), () => this.#loading !== undefined);
      return this.load();
    })();
    return this.#preloading;
  }
}

/**
 * Fetches the lazy chunks once the first screen has been painted, so that
 * opening a view later is instant: `soon` (the chunks a click on the main
 * navigation opens) right after that frame, then the rest one per idle
 * period, so no single task holds the page. A few files at a time
 * (`LazyView.preload`): all at once they held every connection the browser
 * host's page has, and a person's click waited for one (issue 28). The main
 * views are not left to idle periods: on a loaded machine the page is seldom
 * idle just after its first paint, and the Renewals' chunk, last in that
 * queue, was still fetched after the click that opened it (issue 28).
 */
export function preloadViews(soon: ReadonlyArray<{ preload(): Promise<void> }>, later: ReadonlyArray<{ preload(): Promise<void> }>): () => void {
  let cancelled = false;
  let handle: number | undefined;
  const next = (index: number) => {
    if (cancelled || index >= later.length) return;
    handle = requestIdleCallback(() => void later[index]!.preload().then(() => next(index + 1)), { timeout: 2000 });
  };
  // `preload` never rejects (a failure is kept on the view), so the queue moves on.
  const nextSoon = (index: number): void => {
    if (cancelled) return;
    if (index >= soon.length) return next(0);
    void soon[index]!.preload().then(() => nextSoon(index + 1));
  };
  const stopWaiting = afterNextPaint(() => nextSoon(0));
  return () => {
    cancelled = true;
    stopWaiting();
    if (handle !== undefined) cancelIdleCallback(handle);
  };
}
