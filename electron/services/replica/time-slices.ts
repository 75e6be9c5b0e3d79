import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type { SliceTurn } from './requests-first.js';

/**
 * How long a full refresh works before it yields (ms of wall time): rows are
 * compared, written, deleted and the full-text index filled until this has
 * passed, so a slice stays short whatever the machine's load (fixed batches of
 * 2,000 rows took 160-620 ms each).
 */
export const SLICE_MS = 8;

/**
 * Runs `step` until SLICE_MS of wall time has passed, yields, and goes on
 * until it returns false: each slice is as long as the machine allows in that
 * time, never a fixed number of rows. `turn`: what background work waits for
 * besides the event loop before its next slice (the requests being answered, RequestsFirst).
 */
export async function inSlices(step: () => boolean, turn?: SliceTurn): Promise<void> {
  while (slice(step)) {
    await yieldToEventLoop();
    await turn?.();
  }
}

/**
 * For a loop of awaited pieces that may each resolve at once (a page handed to a sink with room): its awaits
 * then never let the event loop turn, and inSlices' clock starts afresh at every call. The function answered
 * yields once SLICE_MS has passed since the last turn it gave, and resolves at once before.
 */
export function yieldWhenDue(): () => Promise<void> {
  let until = performance.now() + SLICE_MS;
  return async () => {
    if (performance.now() < until) return;
    await yieldToEventLoop();
    until = performance.now() + SLICE_MS;
  };
}

/** Runs `step` until it returns false or `sliceMs` of wall time has passed: one slice; true while there is more. */
export function slice(step: () => boolean, sliceMs: number = SLICE_MS): boolean {
  const until = performance.now() + sliceMs;
  do {
    if (!step()) return false;
  } while (performance.now() < until);
  return true;
}

/** What one step of background work aims to take (ms of wall time): half a slice, so a slice of steps stays near SLICE_MS. */
export const STEP_MS = SLICE_MS / 2;

/**
 * Rows a step of background work reads or moves, sized by the time the last step took, not fixed: steps sized in rows
 * for 100,000 took 0.15-1.1 s each after a first sync of 1,000,000 at load 30-50 (the Renewals' upcoming read, the
 * overview's savings; branch curve17's trace), where a step that took too long makes the next one as much smaller.
 * A step grows at most twofold at a time, and never below `min` rows (so it always gets on) nor above `max`.
 */
export class RowsByTime {
  #rows: number;

  constructor(
    first: number,
    readonly min = 8,
    readonly max = 8_192,
    readonly budgetMs = STEP_MS,
    readonly now: () => number = () => performance.now(),
  ) {
    this.#rows = Math.max(min, Math.min(max, first));
  }

  /** Rows the next step takes. */
  get rows(): number {
    return this.#rows;
  }

  /** Runs `step` with the rows it may take; sizes the next step by the pace this one had. */
  timed<T>(step: (rows: number) => T): T {
    const rows = this.#rows;
    const startedAt = this.now();
    const result = step(rows);
    const tookMs = this.now() - startedAt;
    const paced = tookMs > 0 ? Math.floor((rows * this.budgetMs) / tookMs) : rows * 2;
    this.#rows = Math.max(this.min, Math.min(this.max, rows * 2, paced));
    return result;
  }
}
