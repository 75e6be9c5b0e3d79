import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountKey, CustomerMatcher } from '../../../shared/customers/matching.js';
import type { Customer } from '../../../shared/ipc/customers.js';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '\u202Eevil', 'x'.repeat(500), 'Ünïcødé', 'a b'];

/** Account and id spellings, hostile ones included, each distinct once compared as the book compares them. */
const word = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''));

/** A book whose accounts and ids are each one customer's (as the book's rules keep it), and policies over them and others. */
const scenario = fc
  .record({
    accounts: fc.uniqueArray(word, { minLength: 0, maxLength: 30, selector: accountKey }),
    ids: fc.uniqueArray(word, { minLength: 0, maxLength: 20, selector: (s) => s.trim() }),
    customers: fc.integer({ min: 1, max: 8 }),
    strays: fc.uniqueArray(word, { maxLength: 10, selector: accountKey }),
  })
  .chain(({ accounts, ids, customers, strays }) =>
    fc.record({
      accountOwner: fc.array(fc.integer({ min: -1, max: customers - 1 }), { minLength: accounts.length, maxLength: accounts.length }),
      idOwner: fc.array(fc.integer({ min: -1, max: customers - 1 }), { minLength: ids.length, maxLength: ids.length }),
      // Policies name an account in any case and spacing, or one nobody listed.
      policies: fc.array(fc.oneof(fc.constantFrom(...(accounts.length ? accounts : ['none'])), fc.constantFrom(...(strays.length ? strays : ['stray']))), { maxLength: 40 }),
      casing: fc.boolean(),
      accounts: fc.constant(accounts),
      ids: fc.constant(ids),
      customers: fc.constant(customers),
      strays: fc.constant(strays.filter((s) => !accounts.some((a) => accountKey(a) === accountKey(s)))),
    }),
  );

function bookOf(s: { accounts: string[]; ids: string[]; customers: number; accountOwner: number[]; idOwner: number[] }): Customer[] {
  return Array.from({ length: s.customers }, (_, index) => ({
    key: `cu_${String(index).padStart(8, '0')}`,
    name: `Customer ${index}`,
    accounts: s.accounts.filter((_, i) => s.accountOwner[i] === index),
    externalIds: s.ids.filter((_, i) => s.idOwner[i] === index),
    contact: '',
    notes: '',
    updatedAt: '2026-11-26T00:00:00.000Z',
  }));
}

describe('matching policies to customers', () => {
  it('gives each policy the one customer listing its account (any case or spacing), and none when nobody lists it', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const book = bookOf(s);
        const matcher = new CustomerMatcher(book);
        for (const account of s.policies) {
          const spelled = s.casing ? ` ${account.toUpperCase()} ` : account;
          const owners = book.filter((customer) => customer.accounts.some((a) => accountKey(a) === accountKey(account)));
          expect(owners.length).toBeLessThanOrEqual(1);
          expect(matcher.ofAccount(spelled)?.key ?? null).toBe(owners[0]?.key ?? null);
        }
        for (const stray of s.strays) expect(matcher.ofAccount(stray)).toBeNull();
        // Unassigned is exactly "no customer": the set of assigned accounts agrees with ofAccount.
        const assigned = matcher.assignedAccountKeys();
        for (const account of [...s.accounts, ...s.strays]) expect(assigned.has(accountKey(account))).toBe(matcher.ofAccount(account) !== null);
      }),
    );
  });

  it('gives each DR policy the customer holding its external id exactly, whatever the order of the book', () => {
    fc.assert(
      fc.property(scenario, fc.boolean(), (s, reversed) => {
        const book = bookOf(s);
        const matcher = new CustomerMatcher(reversed ? [...book].reverse() : book);
        s.ids.forEach((id, i) => {
          const owner = s.idOwner[i] as number;
          expect(matcher.ofExternalId(id)?.key ?? null).toBe(owner < 0 ? null : (book[owner] as Customer).key);
        });
      }),
    );
  });

  it('finds the policies of an account listed by its id through the linked accounts list', () => {
    const book = bookOf({ accounts: ['314159265358'], ids: [], customers: 1, accountOwner: [0], idOwner: [] });
    const matcher = new CustomerMatcher(book, [{ accountId: '314159265358', accountName: 'morgan-prod' }]);
    expect(matcher.ofAccount('morgan-prod')?.name).toBe('Customer 0');
    expect(matcher.accountKeysOf(book[0]!.key)).toEqual(new Set(['314159265358', 'morgan-prod']));
    expect(matcher.ofAccount('__proto__')).toBeNull();
    expect(matcher.ofExternalId('constructor')).toBeNull();
  });
});
