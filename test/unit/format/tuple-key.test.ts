import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownerFolder } from '../../../electron/services/platform/owner.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

/** Pairs that read the same joined with "\n" or ":" (the keys before cust16), each a different owner or list. */
const COLLIDING: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [['a', 'b\nc'], ['a\nb', 'c']],
  [['sandbox', 'alex\n'], ['sandbox\nalex', '']],
  [['a', 'b:c'], ['a:b', 'c']],
  [['CUST-7\nCUST-8'], ['CUST-7', 'CUST-8']],
  [['endpoint', 'x\u0000y'], ['endpoint', 'x', 'y']],
  [[], ['']],
];

describe('tupleKey (cust16)', () => {
  it('gives tuples that joined with a separator read the same different keys', () => {
    for (const [a, b] of COLLIDING) {
      expect(tupleKey(...a), JSON.stringify([a, b])).not.toBe(tupleKey(...b));
    }
  });

  it('gives the same tuple the same key, `__proto__` included', () => {
    expect(tupleKey('sandbox', 'alex@example.com')).toBe(tupleKey('sandbox', 'alex@example.com'));
    expect(tupleKey('__proto__', 'constructor')).toBe(tupleKey('__proto__', 'constructor'));
  });
});

describe('ownerFolder (cust16)', () => {
  it('keeps the folder of every owner whose profile id holds no line break where it was', () => {
    // The name every folder was made under so far: an existing copy and own data must still be found.
    for (const owner of [
      { profileId: 'sandbox', username: 'alex@example.com' },
      { profileId: 'acme-prod', username: 'b\nc' },
      { profileId: '__proto__', username: '' },
    ]) {
      expect(ownerFolder(owner)).toBe(createHash('sha256').update(`${owner.profileId}\n${owner.username}`).digest('hex').slice(0, 24));
    }
  });

  it('never gives two owners one folder, a profile id with a line break included', () => {
    const pairs = [
      [{ profileId: 'a', username: 'b\nc' }, { profileId: 'a\nb', username: 'c' }],
      [{ profileId: 'sandbox', username: 'alex\n' }, { profileId: 'sandbox\nalex', username: '' }],
    ] as const;
    for (const [one, other] of pairs) expect(ownerFolder(one), JSON.stringify([one, other])).not.toBe(ownerFolder(other));
  });
});
