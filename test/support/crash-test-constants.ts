/** Shared by the crash-safety test and its child: enough rows that a refresh spans many slices (SLICE_MS) and yields between them. */
export const CRASH_TEST_ROWS = 2000;

/**
 * Where the child stops in its first write: at its nth yield (it yields
 * between its slices), or once the write has resolved ('end'). Paused: it stops dead there until killed; otherwise it
 * writes on and the kill lands a moment later, wherever it has got to.
 */
export interface CrashPoint {
  readonly atYield: number | 'end';
  readonly pause: boolean;
}
