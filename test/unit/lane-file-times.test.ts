import { describe, expect, it } from 'vitest';
import { laneFileTimes } from '../support/lane-file-times.js';

const file = (name: string, startTime: number, endTime: number) => ({ name, startTime, endTime });

describe("a vitest file's time in its lane (the durations table npm test's lanes are shared out by)", () => {
  it('counts the time before its first test (import, collection, beforeAll) as the file’s, in a lane of one worker', () => {
    // The run starts at 1,000; a file whose work is all in beforeAll shows 0 ms between its start and end.
    const files = [file('b.test.ts', 5_000, 5_000), file('a.test.ts', 1_500, 3_000), file('c.test.ts', 5_400, 9_000)];
    expect(laneFileTimes(1_000, files)).toEqual([
      ['a.test.ts', 2_000],
      ['b.test.ts', 2_000],
      ['c.test.ts', 4_000],
    ]);
  });

  it('gives a file that overlapped another (several workers) only its own start to end', () => {
    const files = [file('a.test.ts', 1_000, 4_000), file('b.test.ts', 2_000, 3_000), file('c.test.ts', 3_500, 6_000)];
    expect(laneFileTimes(0, files)).toEqual([
      ['a.test.ts', 4_000],
      ['b.test.ts', 1_000],
      ['c.test.ts', 2_500],
    ]);
  });

  it('adds up, in a lane of one worker, to the lane’s time from its start to its last file’s end', () => {
    const files = [file('a.test.ts', 1_200, 2_000), file('b.test.ts', 2_700, 2_900), file('c.test.ts', 4_000, 7_500)];
    const total = laneFileTimes(1_000, files).reduce((sum, [, ms]) => sum + ms, 0);
    expect(total).toBe(7_500 - 1_000);
  });
});
