import type { Component } from 'svelte';
import { afterNextPaint } from '../lib/next-paint.js';

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
  readonly #load: () => Promise<{ default: Component<Props> }>;

  constructor(load: () => Promise<{ default: Component<Props> }>) {
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
}

/**
 * Fetches the lazy chunks once the first screen has been painted, so that
 * opening a view later is instant: `soon` (the chunks a click on the main
 * navigation opens) all at once right after that frame, the rest one per idle
 * period, so no single task holds the page. The main views are not left to
 * idle periods: on a loaded machine the page is seldom idle just after its
 * first paint, and the Renewals' chunk, last in that queue, was still fetched
 * after the click that opened it (issue 28).
 */
export function preloadViews(soon: ReadonlyArray<{ load(): Promise<void> }>, later: ReadonlyArray<{ load(): Promise<void> }>): () => void {
  let cancelled = false;
  let handle: number | undefined;
  const next = (index: number) => {
    if (cancelled || index >= later.length) return;
    handle = requestIdleCallback(() => void later[index]!.load().then(() => next(index + 1)), { timeout: 2000 });
  };
  const stopWaiting = afterNextPaint(() => {
    for (const view of soon) void view.load();
    next(0);
  });
  return () => {
    cancelled = true;
    stopWaiting();
    if (handle !== undefined) cancelIdleCallback(handle);
  };
}
