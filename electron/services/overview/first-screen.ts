import type { Handlers } from '../../../shared/ipc/contract.js';
import { markLaunch } from '../diagnostics/launch-marks.js';

/** How long a wait for the first screen lasts when that screen never comes. */
export interface FirstScreenWait {
  /** After the window's first call since the wait began: a window showing something else (the password asked again over another view). */
  readonly afterWindowMs: number;
  /** When no window calls at all (a host with no page open). */
  readonly withoutWindowMs: number;
}

interface Waiter {
  readonly release: () => void;
  readonly windowCalled: () => void;
}

/**
 * When the first screen (the overview, where every sign-in and launch lands)
 * has had its figures: the refresh a sign-in starts over a copy on disk, the
 * slim rows' load and the check of every page of the copy wait for it, so
 * that nothing heavy runs on the main process while the person waits for that
 * first screen (issue 25).
 *
 * A wait that no overview ends runs out (FirstScreenWait), counted from the
 * window's first call, not from the wait's start: at a launch on a loaded
 * machine the page took 5-17 s to load its code and ask anything (measured at
 * load 33-35), and a fixed 5 s from the start let the refresh begin before the
 * overview was even asked. An overview being answered holds every wait until
 * its answer.
 */
export class FirstScreen {
  readonly #paintMs: number;
  readonly #preparedForMs: number;
  readonly #whose: () => string;
  readonly #signedIn: () => boolean;
  #waiting: Waiter[] = [];
  #overviewsUnderWay = 0;
  #answeredOnce = false;
  #overview: Handlers['overview.summary'] | null = null;
  /** The overview counted before a window asked for it (prepare), for whom and when it began. */
  #prepared: { readonly whose: string; readonly at: number; readonly answer: ReturnType<Handlers['overview.summary']> } | null = null;

  /**
   * paintMs: how long after the overview's answer the waiting work starts, so the window paints the figures
   * without sharing the machine with it (the bench measured 100-300 ms from the answer to the frame at load 21).
   * preparedForMs: how long a prepared overview stands for the window's first ask (its figures are as of when it
   * was counted); whose: the session an overview is counted for (a prepared one serves that session only);
   * signedIn: whether anyone is (an overview asked while no one is, is no first screen: see watch).
   */
  constructor(options: { readonly paintMs?: number; readonly preparedForMs?: number; readonly whose?: () => string; readonly signedIn?: () => boolean } = {}) {
    this.#paintMs = options.paintMs ?? 0;
    this.#preparedForMs = options.preparedForMs ?? 0;
    this.#whose = options.whose ?? (() => '');
    this.#signedIn = options.signedIn ?? (() => true);
  }

  /**
   * Counts the overview now, before any window asks, for the window's first ask to take (issue 25): at a launch
   * with a copy on disk the count (cold, the copy's pages from the disk) runs while the window loads its code,
   * instead of after. Not an answer to a window: the work waiting for the first screen still waits for the
   * window's ask. Taken once, by the same session, within preparedForMs; otherwise the window's ask counts anew.
   */
  prepare(): void {
    // A window that asked first is counting already: a second count would only hold up its answer.
    if (!this.#overview || this.#answeredOnce || this.#overviewsUnderWay > 0) return;
    markLaunch('overview count prepared');
    const answer = this.#overview(undefined);
    // A failure here is the window's to see only if it takes it; then it is asked again (below).
    answer.then(
      () => markLaunch('overview count prepared, done'),
      () => undefined,
    );
    this.#prepared = { whose: this.#whose(), at: Date.now(), answer };
  }

  #takePrepared(): ReturnType<Handlers['overview.summary']> | null {
    const prepared = this.#prepared;
    this.#prepared = null;
    if (!prepared || prepared.whose !== this.#whose() || Date.now() - prepared.at > this.#preparedForMs) return null;
    return prepared.answer;
  }

  /** Resolves at the next answer of the overview, or when the wait runs out. */
  next(wait: FirstScreenWait): Promise<void> {
    return new Promise((resolve) => {
      let windowSeen = false;
      const runOut = () => {
        // The answer under way ends this wait itself.
        if (this.#overviewsUnderWay > 0) return;
        this.#waiting = this.#waiting.filter((waiting) => waiting !== waiter);
        resolve();
      };
      const arm = (ms: number) => {
        const timer = setTimeout(runOut, ms);
        timer.unref?.();
        return timer;
      };
      let timer = arm(wait.withoutWindowMs);
      const waiter: Waiter = {
        release: () => {
          clearTimeout(timer);
          resolve();
        },
        windowCalled: () => {
          if (windowSeen) return;
          windowSeen = true;
          clearTimeout(timer);
          timer = arm(wait.afterWindowMs);
        },
      };
      this.#waiting.push(waiter);
    });
  }

  /**
   * A handler of a panel beside the first screen whose answer is heavy (the overview by customer loads every
   * policy's slim row): until the first screen has had its figures once, its work waits for them. The window
   * is calling, so the wait is the one for a window.
   */
  after<I, O>(handler: (input: I) => Promise<O>, wait: FirstScreenWait): (input: I) => Promise<O> {
    return async (input) => {
      if (!this.#answeredOnce) await this.next({ afterWindowMs: wait.afterWindowMs, withoutWindowMs: wait.afterWindowMs });
      return handler(input);
    };
  }

  /** The handlers, each call noted as the window's, with the overview's answer (or failure: the screen shows that too) announced. */
  watch(handlers: Handlers): Handlers {
    const watched = Object.fromEntries(
      Object.entries(handlers).map(([channel, handler]) => [
        channel,
        (input: unknown) => {
          for (const waiter of this.#waiting) waiter.windowCalled();
          return (handler as (input: unknown) => unknown)(input);
        },
      ]),
    ) as unknown as Handlers;
    const overview = handlers['overview.summary'];
    this.#overview = overview;
    return {
      ...watched,
      'overview.summary': async (input) => {
        for (const waiter of this.#waiting) waiter.windowCalled();
        // The window asks the overview as its code starts, before it knows whether anyone is signed in
        // (renderer/first-calls.ts): signed out, that ask is refused and dropped, and the first screen is still the
        // one after the sign-in (its prepared count and the work waiting for its figures are left for that one).
        if (!this.#signedIn()) return overview(input);
        markLaunch('overview asked');
        this.#overviewsUnderWay += 1;
        try {
          const prepared = this.#takePrepared();
          return await (prepared ? prepared.catch(() => overview(input)) : overview(input));
        } finally {
          this.#overviewsUnderWay -= 1;
          markLaunch('overview answered');
          this.#answered();
        }
      },
    };
  }

  #answered(): void {
    this.#answeredOnce = true;
    const waiting = this.#waiting;
    this.#waiting = [];
    const release = () => {
      for (const waiter of waiting) waiter.release();
    };
    if (this.#paintMs > 0) setTimeout(release, this.#paintMs).unref?.();
    else release();
  }
}
