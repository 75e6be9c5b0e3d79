import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moveIndex, pagesOfRange, scrollTopToReveal, visibleRange } from '../../../renderer/lib/virtual-range.js';

describe('visibleRange', () => {
  it('covers the rows the viewport shows, and overscan on both sides within bounds', () => {
    expect(visibleRange(0, 400, 40, 1000)).toEqual({ start: 0, end: 10 });
    expect(visibleRange(420, 400, 40, 1000)).toEqual({ start: 10, end: 21 });
    expect(visibleRange(420, 400, 40, 1000, 5)).toEqual({ start: 5, end: 26 });
    expect(visibleRange(39_800, 400, 40, 1000, 5)).toEqual({ start: 990, end: 1000 });
  });

  it('is empty with no rows and never negative', () => {
    expect(visibleRange(100, 400, 40, 0)).toEqual({ start: 0, end: 0 });
    expect(visibleRange(-50, 400, 40, 3)).toEqual({ start: 0, end: 3 });
  });

  it('always holds the row at the top of the viewport and stays inside the list', () => {
    fc.assert(
      fc.property(fc.nat(5_000_000), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 100_000 }), fc.nat(20), (top, height, count, overscan) => {
        const range = visibleRange(top, height, 40, count, overscan);
        expect(range.start).toBeGreaterThanOrEqual(0);
        expect(range.end).toBeLessThanOrEqual(count);
        expect(range.start).toBeLessThanOrEqual(range.end);
        const topRow = Math.floor(top / 40);
        if (topRow < count) {
          expect(range.start).toBeLessThanOrEqual(topRow);
          expect(range.end).toBeGreaterThan(topRow);
        }
      }),
    );
  });
});

describe('scrollTopToReveal', () => {
  it('does not move for a row already in view, and aligns a row above to the top and one below to the bottom', () => {
    expect(scrollTopToReveal(5, 40, 0, 400)).toBeNull();
    expect(scrollTopToReveal(2, 40, 200, 400)).toBe(80);
    expect(scrollTopToReveal(20, 40, 0, 400)).toBe(440);
  });
});

describe('pagesOfRange', () => {
  it('names the 1-based server pages holding the rows', () => {
    expect(pagesOfRange({ start: 0, end: 1 }, 100)).toEqual([1]);
    expect(pagesOfRange({ start: 95, end: 115 }, 100)).toEqual([1, 2]);
    expect(pagesOfRange({ start: 200, end: 300 }, 100)).toEqual([3]);
    expect(pagesOfRange({ start: 5, end: 5 }, 100)).toEqual([]);
  });
});

describe('moveIndex', () => {
  it('moves by one, by a page, and to either end, never past them', () => {
    expect(moveIndex('ArrowDown', -1, 10, 5)).toBe(0);
    expect(moveIndex('ArrowDown', 9, 10, 5)).toBe(9);
    expect(moveIndex('ArrowUp', 0, 10, 5)).toBe(0);
    expect(moveIndex('PageDown', 2, 100, 11)).toBe(12);
    expect(moveIndex('PageUp', 5, 100, 11)).toBe(0);
    expect(moveIndex('Home', 50, 100, 11)).toBe(0);
    expect(moveIndex('End', 0, 100, 11)).toBe(99);
    expect(moveIndex('End', 0, 0, 11)).toBe(-1);
  });
});
