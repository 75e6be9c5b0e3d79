import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdMap } from '../../../electron/services/bulk/id-map.js';

/** Ids of every kind the map must tell apart: numbered (several prefixes), leading zeros, too many digits, none. */
const anId = fc.oneof(
  fc.tuple(fc.constantFrom('sc_', 'dr_', '', 'x'), fc.nat({ max: 2_000 })).map(([prefix, n]) => `${prefix}${n}`),
  fc.tuple(fc.constantFrom('sc_', ''), fc.nat({ max: 99 })).map(([prefix, n]) => `${prefix}0${n}`),
  fc.tuple(fc.constantFrom('sc_', ''), fc.nat({ max: 9 })).map(([prefix, n]) => `${prefix}${1_000_000_000 + n}`),
  fc.string({ maxLength: 4 }),
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
});
