import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balancedShards, readDurations } from '../support/balanced-shards.js';

const hostileKeys = fc.uniqueArray(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'test/a\u202e.test.ts')), { maxLength: 60 });
const weights = (keys: readonly string[], seconds: readonly number[]) => Object.fromEntries(keys.map((key, i) => [key, seconds[i % seconds.length] ?? 1]));

describe('balanced shards (npm test shares the vitest files out between its lanes by them)', () => {
  it('puts every file in exactly one shard, whatever the order the files come in, hostile names too', () => {
    fc.assert(
      fc.property(hostileKeys, fc.integer({ min: 1, max: 5 }), fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1 }), (keys, count, seconds) => {
        const durations = weights(keys.slice(0, keys.length / 2), seconds);
        const shards = balancedShards(keys, count, durations);
        expect(shards).toHaveLength(count);
        expect(shards.flat().sort()).toEqual([...keys].sort());
        // Each lane computes its own shard from the files vitest found: another order must give the same split.
        expect(balancedShards([...keys].reverse(), count, durations)).toEqual(shards);
      }),
    );
  });

  it('evens the time out where a split by count would not: the one long file has a shard of its own', () => {
    const durations = { 'test/crash/kills.test.ts': 90, ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`test/unit/u${i}.test.ts`, 10])) };
    const shards = balancedShards(Object.keys(durations), 2, durations);
    const time = (shard: string[]) => shard.reduce((sum, key) => sum + (durations[key as keyof typeof durations] ?? 0), 0);
    expect(shards.map(time)).toEqual([90, 90]);
    expect(shards[0]).toEqual(['test/crash/kills.test.ts']);
  });

  it('weighs a file missing from the table as the median of those in it, so a new file is still run, once', () => {
    const durations = { 'a.test.ts': 1, 'b.test.ts': 2, 'c.test.ts': 30 };
    const shards = balancedShards(['a.test.ts', 'b.test.ts', 'c.test.ts', 'new.test.ts'], 2, durations);
    expect(shards).toEqual([['c.test.ts'], ['b.test.ts', 'new.test.ts', 'a.test.ts']]);
  });

  it('refuses a shard count that is not a whole number of at least 1', () => {
    expect(() => balancedShards(['a'], 0, {})).toThrow('at least 1, not 0');
    expect(() => balancedShards(['a'], 1.5, {})).toThrow('not 1.5');
  });

  it('reads a table that is missing, not JSON or holds odd values as what it can use of it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-durations-'));
    try {
      expect(readDurations(join(dir, 'none.json'))).toEqual({});
      await writeFile(join(dir, 'bad.json'), '{ not json');
      expect(readDurations(join(dir, 'bad.json'))).toEqual({});
      await writeFile(join(dir, 'list.json'), '[1, 2]');
      expect(readDurations(join(dir, 'list.json'))).toEqual({});
      await writeFile(join(dir, 'odd.json'), JSON.stringify({ 'a.test.ts': 3, 'b.test.ts': '4', 'c.test.ts': -1, ['__proto__']: 5 }));
      const read = readDurations(join(dir, 'odd.json'));
      expect(Object.entries(read)).toEqual([
        ['a.test.ts', 3],
        ['__proto__', 5],
      ]);
      expect(balancedShards(['__proto__', 'a.test.ts'], 2, read)).toEqual([['__proto__'], ['a.test.ts']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
