import type { Timers } from '../../../electron/services/session/expiry-timers.js';

/** A clock and timers that move only when the test says so. */
export class ManualClock implements Timers {
  nowMs: number;
  #next = 1;
  #pending = new Map<number, { at: number; callback: () => void }>();

  constructor(start: string | number) {
    this.nowMs = typeof start === 'number' ? start : Date.parse(start);
  }

  now = (): Date => new Date(this.nowMs);

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#pending.set(id, { at: this.nowMs + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.nowMs + ms;
    for (;;) {
      const due = [...this.#pending.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#pending.delete(due[0]);
      this.nowMs = Math.max(this.nowMs, due[1].at);
      due[1].callback();
    }
    this.nowMs = target;
  }
}
