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
  /**
   * A reader holds a snapshot from before the write (as the replica's read connection does while it answers a
   * view), so the checkpoint cannot move the committed write into the file: the kill lands with the write in the
   * log whatever the load. Without one, the checkpoint thread races the kill (at load 13 in CI it won all 8).
   */
  readonly holdLog?: boolean;
}
