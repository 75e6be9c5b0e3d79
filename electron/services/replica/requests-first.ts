/**
 * How long one request holds the background work back, from its arrival: longer than a read of the copy takes
 * on a loaded machine (the Renewals' first query took 0.5-3.7 s at load 18), shorter than what a request that
 * waits on the service (a sync asked, a purchase) or on the background work itself (the overview by customer
 * waits for the slim rows) may take: past it, such a request no longer stops the work it may be waiting for.
 */
const HOLD_MS = 2_000;

/**
 * How long the work waits after the last request was answered: the page then parses and paints that answer
 * (140-330 ms at load 20 for the Renewals' first rows), and on two cores the work resumed at the answer took
 * the CPU from that paint (it took 350-1,160 ms, against 140-780 ms when the work had not been held).
 */
const QUIET_MS = 300;

/**
 * The longest a slice of background work waits for its turn, whatever the requests: requests that overlap (the
 * person working steadily, each answer slower while the machine is loaded) would otherwise hold it back for as
 * long as they come, and the check of every page and the slim rows' load never end. One slice (8 ms) in this
 * much time costs the requests little.
 */
const LONGEST_WAIT_MS = 250;

export interface RequestsFirstOptions {
  /** How long a request holds the background work back (tests: a latch holds it instead). */
  readonly holdMs?: number;
  /** How long after the last answer the work goes on (tests: 0). */
  readonly quietMs?: number;
  /** The longest a slice waits for its turn while requests keep coming (tests: long, a latch decides). */
  readonly longestWaitMs?: number;
}

/**
 * The person's requests before the host's own background work (issue 28): the
 * check of every page of the copy and the slim rows' load, which follow a sync
 * and a launch, run in slices, and before each slice they wait (`turn`) while
 * a request of the window is being answered. A slice yielded to the event
 * loop alone let a read that hops through the file system and the thread pool
 * (the disk check, the own data) meet a slice at every hop: the Renewals' first
 * read took 107-407 ms to its first byte after a sync on a quiet machine,
 * against 31 ms from the kept window.
 *
 * Only the pace of that work changes, never what it does: a read before the
 * check ends is safe as before (each page is authenticated as it is read, and
 * the disk check before a read opens the copy afresh and reads every page
 * first, which does not wait here: see replica.ts).
 */
export class RequestsFirst {
  readonly #holdMs: number;
  readonly #quietMs: number;
  readonly #longestWaitMs: number;
  #quiet: ReturnType<typeof setTimeout> | undefined;
  /** The requests being answered that still hold the work back. */
  #holding = 0;
  #waiting: Array<() => void> = [];
  #stopped = false;

  constructor(options: RequestsFirstOptions = {}) {
    this.#holdMs = options.holdMs ?? HOLD_MS;
    this.#quietMs = options.quietMs ?? QUIET_MS;
    this.#longestWaitMs = options.longestWaitMs ?? LONGEST_WAIT_MS;
  }

  /**
   * The handlers, each call holding the background work back until it is answered (or holdMs passed), but
   * those of `waitFor`: their answer waits for that work (the overview by customer needs the slim rows, a wipe
   * waits for the check under way to stop), so holding it would only hold them.
   */
  watch<H extends object>(handlers: H, waitFor: ReadonlyArray<keyof H> = []): H {
    return Object.fromEntries(
      Object.entries(handlers).map(([channel, handler]) => {
        const answer = handler as (input: unknown) => Promise<unknown>;
        return [channel, waitFor.includes(channel as keyof H) ? answer : (input: unknown) => this.during(() => answer(input))];
      }),
    ) as H;
  }

  /** From now on nothing is held back (the app closes: what waits for the work under way must not wait for requests). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#quiet);
    this.#wake();
  }

  /**
   * The window is about to call (its views read again once the copy changed, and a person who watched the sync end
   * clicks then): the work waits `forMs`, as in the quiet after an answer, unless requests hold it already (their
   * quiet follows them). A request arriving meanwhile holds it as ever. Held only from its answer on, the sync's end
   * met the page's calls with the slices of the slim rows' load and the Renewals' opening already under way: each
   * slice one more wait before the request was even read (0.4-0.5 s at load 39 for the first click at done, renew16).
   */
  expectCalls(forMs: number): void {
    if (this.#stopped || this.#holding > 0) return;
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => (this.#holding === 0 ? this.#wake() : (this.#quiet = undefined)), forMs);
    this.#quiet.unref?.();
  }

  /** Runs one request's answer, the background work held back meanwhile. */
  async during<T>(answer: () => Promise<T>): Promise<T> {
    let held = true;
    this.#holding += 1;
    clearTimeout(this.#quiet);
    const release = (answered: boolean) => {
      if (!held) return;
      held = false;
      this.#holding -= 1;
      if (this.#holding > 0) return;
      // Answered: after the page has had the quiet period to paint it; a hold run out: at once.
      if (answered && this.#quietMs > 0 && !this.#stopped) {
        // A request that came meanwhile holds the work itself, and starts its own quiet period once answered.
        this.#quiet = setTimeout(() => (this.#holding === 0 ? this.#wake() : (this.#quiet = undefined)), this.#quietMs);
        this.#quiet.unref?.();
      } else this.#wake();
    };
    const timer = setTimeout(() => release(false), this.#holdMs);
    timer.unref?.();
    try {
      return await answer();
    } finally {
      clearTimeout(timer);
      release(true);
    }
  }

  /**
   * Resolves once no request holds the work back, or once the slice has waited longestWaitMs: each slice of
   * background work asks it first.
   */
  turn(): Promise<void> {
    if ((this.#holding === 0 && this.#quiet === undefined) || this.#stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const waited = setTimeout(go, this.#longestWaitMs);
      waited.unref?.();
      function go(): void {
        clearTimeout(waited);
        resolve();
      }
      this.#waiting.push(go);
    });
  }

  /** True while a request is being answered (and holds the work back). */
  get busy(): boolean {
    return this.#holding > 0 && !this.#stopped;
  }

  #wake(): void {
    clearTimeout(this.#quiet);
    this.#quiet = undefined;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}

/** Before a slice of background work: its turn (the requests first), then the event loop's (I/O, timers). */
export type SliceTurn = () => Promise<void>;
