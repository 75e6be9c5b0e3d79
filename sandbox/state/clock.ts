export interface ClockState {
  /** Added to the machine's clock while the sandbox clock runs. */
  readonly offsetMs: number;
  /** When set, the sandbox clock stands still at this instant. */
  readonly frozenAtMs: number | null;
}

/**
 * The sandbox's notion of now. Expiry of tokens, time-driven statuses and the
 * cancellation fee all read it, so tests can move time instead of waiting.
 */
export class SandboxClock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;

  constructor(private readonly machineNow: () => number = Date.now) {}

  nowMs(): number {
    return this.frozenAtMs ?? this.machineNow() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Jumps to an instant; `frozen` decides whether time then runs on. */
  set(instantMs: number, frozen: boolean): void {
    if (frozen) {
      this.frozenAtMs = instantMs;
    } else {
      this.frozenAtMs = null;
      this.offsetMs = instantMs - this.machineNow();
    }
  }

  advance(seconds: number): void {
    this.set(this.nowMs() + seconds * 1000, this.frozenAtMs !== null);
  }

  setFrozen(frozen: boolean): void {
    this.set(this.nowMs(), frozen);
  }

  get frozen(): boolean {
    return this.frozenAtMs !== null;
  }

  snapshot(): ClockState {
    return { offsetMs: this.offsetMs, frozenAtMs: this.frozenAtMs };
  }

  restore(state: ClockState): void {
    this.offsetMs = state.offsetMs;
    this.frozenAtMs = state.frozenAtMs;
  }
}
