import { describe, expect, it } from 'vitest';
import { customerOptionLabel, shortName } from '../../../renderer/lib/customer-option.js';

describe('shortName', () => {
  it('keeps a name within the length whole, and cuts a longer one with an ellipsis', () => {
    expect(shortName('Northwind')).toBe('Northwind');
    expect(shortName('x'.repeat(60))).toBe('x'.repeat(60));
    expect(shortName('x'.repeat(500))).toBe(`${'x'.repeat(60)}…`);
    expect(customerOptionLabel('y'.repeat(500))).toBe(`${'y'.repeat(80)}…`);
  });

  it('cuts between code points (no half of a surrogate pair) and drops the spaces before the ellipsis', () => {
    const emoji = '🙂'.repeat(70);
    const cut = shortName(emoji);
    expect(Array.from(cut)).toHaveLength(61);
    expect(cut.endsWith('🙂…')).toBe(true);
    expect(shortName(`${'a'.repeat(59)}   tail`, 60)).toBe(`${'a'.repeat(59)}…`);
  });

  it('leaves __proto__ an ordinary name', () => {
    expect(shortName('__proto__')).toBe('__proto__');
  });
});
