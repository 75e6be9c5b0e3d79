import type { Customer, ParsedCustomerDraft } from '../ipc/customers.js';
import { accountKey, nameKey } from './matching.js';

/**
 * Why a customer cannot be kept as typed, in words for the field that says it; null when it can.
 * A name, an external id and an account each belong to one customer only: a policy must never
 * match two, and two "Northwind"s cannot be told apart in a picker.
 */
export function conflictOf(draft: ParsedCustomerDraft, book: readonly Customer[]): { field: 'name' | 'externalIds' | 'accounts'; message: string } | null {
  const others = book.filter((customer) => customer.key !== draft.key);
  const name = nameKey(draft.name);
  const sameName = others.find((customer) => nameKey(customer.name) === name);
  if (sameName) return { field: 'name', message: `A customer named “${sameName.name}” is in the book already: merge them, or choose another name` };
  for (const id of draft.externalIds) {
    const owner = others.find((customer) => customer.externalIds.includes(id));
    if (owner) return { field: 'externalIds', message: `The external customer id ${id} belongs to “${owner.name}” already` };
  }
  for (const account of draft.accounts) {
    const key = accountKey(account);
    const owner = others.find((customer) => customer.accounts.some((own) => accountKey(own) === key));
    if (owner) return { field: 'accounts', message: `The account ${account} belongs to “${owner.name}” already` };
  }
  return null;
}

/** A draft's lists without repeats (ids exactly, accounts as accountKey compares them), in the order typed. */
export function withoutRepeats(draft: ParsedCustomerDraft): ParsedCustomerDraft {
  const accounts = new Map<string, string>();
  for (const account of draft.accounts) if (!accounts.has(accountKey(account))) accounts.set(accountKey(account), account);
  return { ...draft, externalIds: [...new Set(draft.externalIds)], accounts: [...accounts.values()] };
}

/** The book in the order people look for it: by name, case and accents aside. */
export function byName(a: Customer, b: Customer): number {
  return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.key.localeCompare(b.key);
}
