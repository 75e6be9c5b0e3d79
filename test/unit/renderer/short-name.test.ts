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

  it('cuts between graphemes: a flag, a joined emoji, a skin tone or an accent is kept whole or left out whole (cust16)', () => {
    const flag = '🇩🇪'; // two regional indicators, one flag
    const family = '👨‍👩‍👧'; // three people joined by U+200D
    const thumb = '👍🏽'; // a skin-tone modifier after its emoji
    const accented = 'e\u0301'; // e and a combining acute accent
    for (const [what, grapheme] of [['flag', flag], ['family', family], ['thumb', thumb], ['accent', accented]] as const) {
      // The 60th character is the grapheme: kept whole.
      expect(shortName(`${'a'.repeat(59)}${grapheme}${'b'.repeat(10)}`), what).toBe(`${'a'.repeat(59)}${grapheme}…`);
      // The cut falls just before it: left out whole, never its first half.
      expect(shortName(`${'a'.repeat(60)}${grapheme}${'b'.repeat(10)}`), what).toBe(`${'a'.repeat(60)}…`);
    }
    // A name of 60 graphemes but more code points is whole.
    expect(shortName(flag.repeat(60))).toBe(flag.repeat(60));
    expect(shortName(flag.repeat(61))).toBe(`${flag.repeat(60)}…`);
    expect(customerOptionLabel(family.repeat(81))).toBe(`${family.repeat(80)}…`);
  });

  it('leaves __proto__ an ordinary name', () => {
    expect(shortName('__proto__')).toBe('__proto__');
  });
});
