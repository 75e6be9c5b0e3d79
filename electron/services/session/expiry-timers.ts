/** The two timer functions the session needs, so tests can run time by hand. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    // A pending warning must never keep the process (or a test run) alive.
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** setTimeout's longest delay; longer waits are taken in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface ExpiryCallbacks {
  /** Called once, `warningMs` before expiry (at once when less is left), with whole minutes left. */
  warn(minutesLeft: number): void;
  expire(): void;
}

/**
 * The session's two deadlines: a warning a few minutes before the token stops
 * working, and the end itself, so the renderer hears of an expiry even when no
 * request happens to be made.
 */
export class ExpiryTimers {
  readonly #now: () => number;
  readonly #warningMs: number;
  readonly #timers: Timers;
  #handles: unknown[] = [];

  constructor(options: { now: () => number; warningMs: number; timers?: Timers }) {
    this.#now = options.now;
    this.#warningMs = options.warningMs;
    this.#timers = options.timers ?? realTimers;
  }

  schedule(expiresAtMs: number, callbacks: ExpiryCallbacks): void {
    this.clear();
    const remaining = () => expiresAtMs - this.#now();
    this.#at(expiresAtMs - this.#warningMs, () => {
      if (remaining() > 0) callbacks.warn(Math.floor(remaining() / 60_000));
    });
    this.#at(expiresAtMs, () => callbacks.expire());
  }

  clear(): void {
    for (const handle of this.#handles) this.#timers.clearTimeout(handle);
    this.#handles = [];
  }

  #at(instantMs: number, callback: () => void): void {
    const delay = instantMs - this.#now();
    const handle = this.#timers.setTimeout(
      () => {
        this.#handles = this.#handles.filter((h) => h !== handle);
        // The clock may jump (sleep, a long delay in steps): check again before acting.
        if (this.#now() < instantMs) this.#at(instantMs, callback);
        else callback();
      },
      Math.min(Math.max(0, delay), MAX_DELAY_MS),
    );
    this.#handles.push(handle);
  }
}
