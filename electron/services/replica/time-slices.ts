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
