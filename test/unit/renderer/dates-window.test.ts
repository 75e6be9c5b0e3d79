import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWindow } from '../../../renderer/lib/dates.js';

const fullDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const day = fc.integer({ min: 0, max: 4_000 }).map((d) => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000).toISOString());

describe('formatWindow, kept per window', () => {
  it('says every window as formatRange does, however many windows came before (the kept texts are dropped past 2,000)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(day, day), { minLength: 1, maxLength: 300 }), (windows) => {
        for (const [start, end] of windows) {
          const [from, to] = start <= end ? [start, end] : [end, start];
          expect(formatWindow(from, to)).toBe(fullDate.formatRange(new Date(from), new Date(to)));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a missing or unreadable end apart from a known one', () => {
    const known = formatWindow('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    expect(formatWindow('2026-01-01T00:00:00Z', undefined)).not.toBe(known);
    expect(formatWindow('2026-01-01T00:00:00Z', undefined)).toMatch(/– —$/);
    expect(formatWindow(undefined, '2026-02-01T00:00:00Z')).toMatch(/^— –/);
    expect(formatWindow('2026-01-01T00:00:00Z', 'not a date')).toMatch(/not a date$/);
  });
});
