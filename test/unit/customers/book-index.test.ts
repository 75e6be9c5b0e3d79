/**
 * The book's conflict check by lookup (BookIndex) finds what a scan of every
 * customer finds: the same conflict, on the same field, naming the same
 * customer, through adds and updates, on hostile names, ids and accounts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { conflictOf } from '../../../shared/customers/book-rules.js';
import { BookIndex } from '../../../shared/customers/book-rules.js';
import { accountKey, nameKey } from '../../../shared/customers/matching.js';
import type { Customer, ParsedCustomerDraft } from '../../../shared/ipc/customers.js';

/** The rule as written before the index: every other customer looked at, in book order. */
function scannedConflict(draft: ParsedCustomerDraft, book: readonly Customer[]) {
  const others = book.filter((customer) => customer.key !== draft.key);
  const sameName = others.find((customer) => nameKey(customer.name) === nameKey(draft.name));
  if (sameName) return { field: 'name', owner: sameName.name };
  for (const id of draft.externalIds) {
    const owner = others.find((customer) => customer.externalIds.includes(id));
    if (owner) return { field: 'externalIds', owner: owner.name };
  }
  for (const account of draft.accounts) {
    const owner = others.find((customer) => customer.accounts.some((own) => accountKey(own) === accountKey(account)));
    if (owner) return { field: 'accounts', owner: owner.name };
  }
  return null;
}

/** Few distinct words, so that rows collide often: the hostile ones, and case and spacing variants. */
const WORDS = ['__proto__', 'constructor', 'toString', 'Northwind', 'NORTHWIND', ' northwind ', 'a\u202Eb', 'x'.repeat(500), 'CUST-1', 'cust-1', 'acct-1', 'Acct-1 ', 'é', 'e\u0301'];
const word = fc.constantFrom(...WORDS);
const draftArb = fc.record({
  name: word,
  externalIds: fc.uniqueArray(word, { maxLength: 3 }),
  accounts: fc.uniqueArray(word, { maxLength: 3 }),
});

function customer(key: string, draft: { name: string; externalIds: string[]; accounts: string[] }): Customer {
  return { key, ...draft, contact: '', notes: '', updatedAt: '2026-11-26T00:00:00.000Z' };
}

/** What a conflict says, in the form the scan above reports it. */
function said(conflict: ReturnType<typeof conflictOf>, book: readonly Customer[]) {
  if (!conflict) return null;
  const owner = book.find((c) => conflict.message.includes(`“${c.name}”`));
  return { field: conflict.field, owner: owner?.name };
}

describe('the book index', () => {
  it('finds every conflict a scan of the book finds, as rows are added and updated (an import)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(draftArb, fc.boolean(), fc.nat()), { maxLength: 40 }), (rows) => {
        const book: Customer[] = [];
        const index = new BookIndex();
        rows.forEach(([raw, update, pick], i) => {
          // An update keeps the key (and place) of a customer in the book, as an import does by name.
          const target = update && book.length > 0 ? (book[pick % book.length] as Customer) : null;
          const draft: ParsedCustomerDraft = { ...raw, contact: '', notes: '', ...(target ? { key: target.key } : {}) };
          const expected = scannedConflict(draft, book);
          expect(said(index.conflictOf(draft), book)).toEqual(expected);
          if (expected) return;
          const kept = customer(target?.key ?? `cu_${i}`, raw);
          if (target) {
            book[book.indexOf(target)] = kept;
            index.replace(target, kept);
          } else {
            book.push(kept);
            index.add(kept);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('names the first customer in book order when a book already holds a key twice', () => {
    const first = customer('cu_1', { name: 'First', externalIds: ['CUST-1'], accounts: ['__proto__'] });
    const second = customer('cu_2', { name: 'Second', externalIds: ['CUST-1'], accounts: ['__PROTO__'] });
    const index = new BookIndex([first, second]);
    expect(index.conflictOf({ name: 'Third', externalIds: ['CUST-1'], accounts: [], contact: '', notes: '' })?.message).toContain('“First”');
    // The first is the draft itself: the second one holding it is the conflict.
    expect(index.conflictOf({ key: 'cu_1', name: 'First', externalIds: [], accounts: [' __proto__'], contact: '', notes: '' })?.message).toContain('“Second”');
    index.replace(first, customer('cu_1', { name: 'First', externalIds: [], accounts: [] }));
    expect(index.conflictOf({ name: 'Third', externalIds: ['CUST-1'], accounts: ['constructor'], contact: '', notes: '' })?.message).toContain('“Second”');
    expect(index.named(' FIRST ')?.key).toBe('cu_1');
    expect(index.named('constructor')).toBeNull();
  });
});
