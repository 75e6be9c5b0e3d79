import { describe, expect, it } from 'vitest';
import { countOf, formatCount } from '../../../shared/format/plural.js';

describe('countOf', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(countOf(1, 'offering', 'offerings', 'en-US')).toBe('1 offering');
    expect(countOf(0, 'offering', 'offerings', 'en-US')).toBe('0 offerings');
    expect(countOf(2048, 'policy', 'policies', 'en-US')).toBe('2,048 policies');
  });
});

describe('formatCount', () => {
  it('writes a count as toLocaleString does, in the locale asked for or the default one', () => {
    for (const count of [0, 1, 999, 1_000, 100_620, 1_234_567, -42]) {
      expect(formatCount(count, 'en-US')).toBe(count.toLocaleString('en-US'));
      expect(formatCount(count, 'de-DE')).toBe(count.toLocaleString('de-DE'));
      expect(formatCount(count)).toBe(count.toLocaleString());
    }
    expect(formatCount(100_620, 'en-US')).toBe('100,620');
  });
});
