import { describe, expect, it } from 'vitest';
import { LocalCapacityQuery } from '../../../shared/ipc/offline.js';

describe('LocalCapacityQuery: a customer filter’s account keys', () => {
  it('passes the keys through as the same array, parsed again and again (each keystroke under "no customer")', () => {
    const keys = Object.freeze(Array.from({ length: 6_000 }, (_, i) => `acct-${i}`));
    const once = LocalCapacityQuery.parse({ text: 'm5', accounts: { keys, inside: false } });
    const twice = LocalCapacityQuery.parse(once);
    expect(once.accounts?.keys).toBe(keys);
    expect(twice.accounts?.keys).toBe(keys);
  });

  it('still refuses keys that are not a list of texts of at most 500 characters, with a clear message', () => {
    for (const keys of [['ok', 7], ['x'.repeat(501)], 'acct-1', { 0: 'acct-1', length: 1 }, Array.from({ length: 100_001 }, () => 'a')]) {
      const parsed = LocalCapacityQuery.safeParse({ accounts: { keys, inside: true } });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: ['accounts', 'keys'], message: 'Account keys are a list of at most 100,000 texts of at most 500 characters' });
    }
    expect(LocalCapacityQuery.parse({ accounts: { keys: ['__proto__', 'constructor', '\u202eevil', 'x'.repeat(500)], inside: true } }).accounts?.keys).toHaveLength(4);
  });

  it('checks a list that is not frozen each time: a key changed after a first parse is refused', () => {
    const keys = ['acct-1'];
    expect(LocalCapacityQuery.safeParse({ accounts: { keys, inside: true } }).success).toBe(true);
    keys.push('x'.repeat(501));
    expect(LocalCapacityQuery.safeParse({ accounts: { keys, inside: true } }).success).toBe(false);
  });
});
