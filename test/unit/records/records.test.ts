import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventLabel } from '../../../renderer/components/cyber/event-types.js';
import { dictionary, dictionaryOf, ownEntry, withEntry, withoutEntry } from '../../../shared/records.js';
import { z } from 'zod';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf'];
const anyKey = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string());

describe('records keyed by outside text', () => {
  it('read, set and remove any key as an ordinary key, and never touch Object.prototype', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(anyKey, fc.string()), { selector: ([key]) => key, maxLength: 8 }), anyKey, (entries, probe) => {
        const record = dictionary(entries);
        expect(Object.getPrototypeOf(record)).toBeNull();
        expect(Object.keys(record).sort()).toEqual(entries.map(([key]) => key).sort());
        const expected = entries.find(([key]) => key === probe)?.[1];
        expect(ownEntry(record, probe)).toBe(expected);
        // A plain object read the same way never answers from its prototype either.
        expect(ownEntry({ ...record }, probe)).toBe(expected);
        expect(ownEntry(withEntry(record, probe, 'set'), probe)).toBe('set');
        expect(ownEntry(withoutEntry(record, probe), probe)).toBeUndefined();
        // Through JSON and the schema, as the settings file and the cache read them back.
        const parsed = dictionaryOf(z.string()).parse(JSON.parse(JSON.stringify(record)));
        expect(Object.entries(parsed).sort()).toEqual(Object.entries(record).sort());
      }),
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
  });

  it('the schema refuses what is not an object of valid values, naming the key', () => {
    const schema = dictionaryOf(z.array(z.string()));
    expect(schema.safeParse([]).success).toBe(false);
    expect(schema.safeParse(null).success).toBe(false);
    const bad = schema.safeParse(JSON.parse('{"__proto__": "not a list"}'));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['__proto__']);
  });

  it('the DR timeline labels an event type named like a prototype property by its own words', () => {
    expect(eventLabel('constructor')).toBe('Constructor');
    expect(eventLabel('toString')).toBe('Tostring');
    expect(eventLabel('__proto__')).toBe('Proto');
    expect(eventLabel('FAILOVER_TEST')).toBe('Failover test');
  });
});
