/** A file of a vitest JSON report, as its reporter writes it (times in ms since the epoch). */
export interface VitestFileResult {
  readonly name: string;
  readonly startTime: number;
  readonly endTime: number;
}

/**
 * Each file's time in its lane, in ms: from the end of the file before it (or the run's start) to its own end, where
 * it started after that end, as every file does in npm test's lanes of one worker; its own start to end where it
 * overlapped another (a report of several workers: the time between is not its alone).
 *
 * A file's startTime in the report is its first test's: its import, its collection and its `beforeAll` come before
 * it and are counted in no file's own start to end, yet the lane spends them on the file. In main's run at load
 * 29-43 (27 November) they were 180 s of vitest-1's 926 s and 377 s of vitest-2's 1,158 s (144 files against 60);
 * `security-scan.test.ts` does all its work in `beforeAll`: 0.0 s by its start and end, 91.5 s in its lane. Split by
 * the files' own times the lanes ended 232 s apart.
 */
export function laneFileTimes(runStartedAt: number, files: readonly VitestFileResult[]): Array<[name: string, ms: number]> {
  let endOfLast = runStartedAt;
  return [...files]
    .sort((a, b) => a.startTime - b.startTime)
    .map((file) => {
      const from = file.startTime >= endOfLast ? endOfLast : file.startTime;
      endOfLast = Math.max(endOfLast, file.endTime);
      return [file.name, file.endTime - from];
    });
}
