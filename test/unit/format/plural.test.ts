import { describe, expect, it } from 'vitest';
import { countOf } from '../../../shared/format/plural.js';

describe('countOf', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(countOf(1, 'offering', 'offerings', 'en-US')).toBe('1 offering');
    expect(countOf(0, 'offering', 'offerings', 'en-US')).toBe('0 offerings');
    expect(countOf(2048, 'policy', 'policies', 'en-US')).toBe('2,048 policies');
  });
});
