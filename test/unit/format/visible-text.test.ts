import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { hasInvisibleControls, visibleText } from '../../../shared/format/visible-text.js';

describe('visibleText', () => {
  it('shows a right-to-left override and a zero-width space as what they are', () => {
    expect(visibleText('Invoice \u202Efdp.exe')).toBe('Invoice [U+202E]fdp.exe');
    expect(visibleText('sc_10\u200B01')).toBe('sc_10[U+200B]01');
  });

  it.each([
    ['\u202A', 'U+202A'],
    ['\u202B', 'U+202B'],
    ['\u202C', 'U+202C'],
    ['\u202D', 'U+202D'],
    ['\u2066', 'U+2066'],
    ['\u2067', 'U+2067'],
    ['\u2068', 'U+2068'],
    ['\u2069', 'U+2069'],
    ['\u200E', 'U+200E'],
    ['\u200F', 'U+200F'],
    ['\u061C', 'U+061C'],
    ['\u200C', 'U+200C'],
    ['\u200D', 'U+200D'],
    ['\u2060', 'U+2060'],
    ['\uFEFF', 'U+FEFF'],
    ['\u00AD', 'U+00AD'],
  ])('makes %j visible', (char, code) => {
    expect(visibleText(`a${char}b`)).toBe(`a[${code}]b`);
  });

  it('leaves ordinary text, accents, right-to-left scripts and emoji as they are', () => {
    for (const text of ['DR Payments 1', 'Zürich – café', 'עברית', 'مرحبا', '日本語', '👍', '']) expect(visibleText(text)).toBe(text);
  });

  it('keeps the joiners that spell one emoji (a family, a rainbow flag) and shows every other joiner', () => {
    for (const text of ['👨‍👩‍👧', 'Family 👨‍👩‍👧 Ltd', '🏳️‍🌈 Pride', '👩🏽‍💻', '👨‍👩‍👧👨‍👩‍👧']) expect(visibleText(text)).toBe(text);
    // Not one emoji: "👍‍👍" draws like "👍👍", so its joiner would hide a difference.
    expect(visibleText('👍\u200D👍')).toBe('👍[U+200D]👍');
    expect(visibleText('Pay\u200Dpal')).toBe('Pay[U+200D]pal');
    expect(visibleText('👨\u200D')).toBe('👨[U+200D]');
    expect(visibleText('\u200D👩')).toBe('[U+200D]👩');
    // A family beside a hidden override: the override shown, the family whole.
    expect(visibleText('👨‍👩‍👧\u202Eabc')).toBe('👨‍👩‍👧[U+202E]abc');
    expect(hasInvisibleControls('👨‍👩‍👧 Family')).toBe(false);
    expect(hasInvisibleControls('👍\u200D👍')).toBe(true);
  });

  it('leaves no invisible control in any text, and text without one as it is', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('\u202E', '\u200B', '\u2067', '\uFEFF', '\u200D', 'ab', '[U+202E]', '👨', '👩', '\uFE0F'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        const shown = visibleText(text);
        // Shown once, never changed again (the page's observer would otherwise write the text over and over).
        return !hasInvisibleControls(shown) && visibleText(shown) === shown && (hasInvisibleControls(text) || shown === text);
      }),
      { numRuns: 300 },
    );
  });
});

describe("visibleText's emoji sequences (issue 25, branch overview18)", () => {
  it('are compiled at the first text with a joiner, once, not as the module is evaluated', async () => {
    // Compiling Unicode's emoji sequences (a `v`-flag property of strings) was about a third of the page's first
    // code's evaluation, sampled at three launches; the module is in that code and in the main process's.
    const compiled: string[] = [];
    const Real = RegExp;
    vi.stubGlobal(
      'RegExp',
      new Proxy(Real, {
        construct(target, args: [string | RegExp, string?], newTarget) {
          compiled.push(String(args[0]));
          return Reflect.construct(target, args, newTarget) as RegExp;
        },
      }),
    );
    try {
      vi.resetModules();
      const fresh = await import('../../../shared/format/visible-text.js');
      const emoji = () => compiled.filter((source) => source.includes('RGI_Emoji')).length;
      expect(emoji()).toBe(0);
      // Text without a joiner, hidden controls included, needs none.
      expect(fresh.visibleText('Invoice \u202Efdp.exe')).toBe('Invoice [U+202E]fdp.exe');
      expect(fresh.hasInvisibleControls('DR Payments 1')).toBe(false);
      expect(emoji()).toBe(0);
      // A joiner: the sequences are compiled, then kept.
      expect(fresh.visibleText('Family 👨‍👩‍👧 Ltd\u200Dx')).toBe('Family 👨‍👩‍👧 Ltd[U+200D]x');
      expect(fresh.visibleText('🏳️‍🌈 Pride')).toBe('🏳️‍🌈 Pride');
      expect(emoji()).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
