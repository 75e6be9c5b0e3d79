import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortSteps } from '../../../electron/services/replica/sort-steps.js';
import { RowsByTime } from '../../../electron/services/replica/time-slices.js';

describe('SortSteps', () => {
  it("sorts as the array's stable sort does, whatever the rows a step takes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.nat())), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }), (items, steps) => {
        const byFirst = (a: [number, number], b: [number, number]) => a[0] - b[0];
        const sorting = new SortSteps(items, byFirst);
        let turns = 0;
        while (sorting.step(steps[turns % steps.length] as number)) turns += 1;
        expect(sorting.sorted).toEqual(items.slice().sort(byFirst));
      }),
    );
  });

  it("moves no more than a step's rows in a step (runs of the first step's rows, merged that many places a step)", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => (i * 7_919) % 10_007);
    let compared = 0;
    const sorting = new SortSteps(items, (a, b) => {
      compared += 1;
      return a - b;
    });
    let most = 0;
    for (let more = true; more; ) {
      compared = 0;
      more = sorting.step(100);
      most = Math.max(most, compared);
    }
    // A run of 100 sorted takes at most about 100 * log2(100) comparisons; a merge step at most 100.
    expect(most).toBeLessThanOrEqual(100 * 7);
    expect(sorting.sorted).toEqual(items.slice().sort((a, b) => a - b));
  });
});

describe('RowsByTime', () => {
  /** A clock the test moves: each step "takes" `msPerRow` a row. */
  function pacedSteps(first: number, msPerRow: number, budgetMs = 4): { sizer: RowsByTime; run: () => number } {
    let now = 0;
    const sizer = new RowsByTime(first, 8, 8_192, budgetMs, () => now);
    return {
      sizer,
      run: () =>
        sizer.timed((rows) => {
          now += rows * msPerRow;
          return rows;
        }),
    };
  }

  it('makes the step after a slow one as much shorter: the next takes the budget at the pace seen', () => {
    const { sizer, run } = pacedSteps(500, 0.5);
    expect(run()).toBe(500); // 250 ms
    expect(sizer.rows).toBe(8); // 4 ms at 0.5 ms a row
    run();
    expect(sizer.rows * 0.5).toBeLessThanOrEqual(4);
  });

  it('grows a fast step at most twofold at a time, up to its most', () => {
    const { sizer, run } = pacedSteps(500, 0.0001);
    run();
    expect(sizer.rows).toBe(1_000);
    for (let i = 0; i < 10; i += 1) run();
    expect(sizer.rows).toBe(8_192);
  });

  it('never goes below its least, so a step always gets on', () => {
    const { sizer, run } = pacedSteps(500, 100);
    run();
    run();
    expect(sizer.rows).toBe(8);
  });
});
