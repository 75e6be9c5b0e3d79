import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdMap, PART_SPAN } from '../../../electron/services/bulk/id-map.js';

/** Ids of every kind the map must tell apart: numbered (several prefixes), leading zeros, too many digits, none. */
const anId = fc.oneof(
  fc.tuple(fc.constantFrom('sc_', 'dr_', '', 'x'), fc.nat({ max: 2_000 })).map(([prefix, n]) => `${prefix}${n}`),
  fc.tuple(fc.constantFrom('sc_', ''), fc.nat({ max: 99 })).map(([prefix, n]) => `${prefix}0${n}`),
  fc.tuple(fc.constantFrom('sc_', ''), fc.nat({ max: 9 })).map(([prefix, n]) => `${prefix}${1_000_000_000 + n}`),
  fc.string({ maxLength: 4 }),
  // Numbers spread over every part a 9-digit id can fall in, so ids of one prefix land in many parts.
  fc.tuple(fc.constantFrom('sc_', ''), fc.integer({ min: 1, max: 999_999_999 })).map(([prefix, n]) => `${prefix}${n}`),
);

describe('IdMap', () => {
  it('answers as a Map of the ids does, whatever the ids', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anId, fc.integer())), fc.array(anId), (sets, asked) => {
        const map = new IdMap<number>();
        const plain = new Map<string, number>();
        for (const [id, value] of sets) {
          map.set(id, value);
          plain.set(id, value);
        }
        expect(map.size).toBe(plain.size);
        for (const id of [...asked, ...plain.keys()]) {
          expect(map.get(id)).toBe(plain.get(id));
          expect(map.has(id)).toBe(plain.has(id));
        }
      }),
    );
  });

  it('holds a list of 100,000 ids in maps of at most PART_SPAN entries, so no growth copies the whole list', () => {
    // A Map grows by copying every entry into a larger table in one piece: at 1M ids in one Map, a 1.4-2.8 s turn.
    const numbered = new IdMap<number>();
    for (let n = 1_000_001; n <= 1_100_000; n += 1) numbered.set(`sc_${n}`, n);
    expect(numbered.size).toBe(100_000);
    expect(numbered.largestPart).toBeLessThanOrEqual(PART_SPAN);
    expect(numbered.get('sc_1050000')).toBe(1_050_000);

    const named = new IdMap<number>();
    for (let i = 0; i < 40_000; i += 1) named.set(`pol-${i.toString(36)}-x`, i);
    expect(named.size).toBe(40_000);
    // Spread by a hash over 256 parts: about 156 each; twice that leaves room for the hash's unevenness.
    expect(named.largestPart).toBeLessThanOrEqual((2 * 40_000) / 256);
    expect(named.get(`pol-${(37_777).toString(36)}-x`)).toBe(37_777);
    // Some 140,000 sets: seconds at load 40 (no wall-clock bound here, only vitest's own).
  }, 60_000);
});
