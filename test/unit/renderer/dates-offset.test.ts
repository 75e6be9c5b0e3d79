import { describe, expect, it } from 'vitest';
import { formatDateTimeAtOffset, offsetName } from '../../../renderer/lib/dates.js';

describe('times at a search offset', () => {
  it('names the offset as people write it, half hours included', () => {
    expect(offsetName(5.5)).toBe('UTC+05:30');
    expect(offsetName(-3)).toBe('UTC\u221203:00');
    expect(offsetName(0)).toBe('UTC');
    expect(offsetName(12.75)).toBe('UTC+12:45');
  });

  it('reads an instant at the offset, not in the computer zone', () => {
    const atOffset = formatDateTimeAtOffset('2027-03-01T00:00:00+05:30', 5.5);
    const inUtc = formatDateTimeAtOffset('2027-03-01T00:00:00+05:30', 0);
    expect(atOffset).toMatch(/2027/);
    expect(atOffset).toMatch(/(^|\D)1(\D|$)/);
    expect(atOffset).toMatch(/12:00\sAM|00:00/);
    expect(inUtc).toMatch(/6:30\sPM|18:30/);
    expect(formatDateTimeAtOffset('not a date', 5.5)).toBe('not a date');
  });
});
