import type { Customer, ParsedCustomerDraft } from '../ipc/customers.js';
import { accountKey, nameKey } from './matching.js';

export interface BookConflict {
  readonly field: 'name' | 'externalIds' | 'accounts';
  readonly message: string;
}

/**
 * Why a customer cannot be kept as typed, in words for the field that says it; null when it can.
 * A name, an external id and an account each belong to one customer only: a policy must never
 * match two, and two "Northwind"s cannot be told apart in a picker.
 */
export function conflictOf(draft: ParsedCustomerDraft, book: readonly Customer[]): BookConflict | null {
  return new BookIndex(book).conflictOf(draft);
}

/**
 * The book looked up by name, external id and account (each compared as the
 * rules compare it), kept up to date as customers are added or replaced: an
 * import checks each row against it instead of against every customer, so
 * checking a book of n rows is linear, not n squared. Each key lists the
 * places of the customers holding it in book order, so the customer a
 * conflict names is the first one, as a scan of the book finds it.
 */
export class BookIndex {
  readonly #customers: Customer[] = [];
  readonly #byName = new Map<string, number[]>();
  readonly #byExternalId = new Map<string, number[]>();
  readonly #byAccount = new Map<string, number[]>();

  constructor(book: readonly Customer[] = []) {
    for (const customer of book) this.add(customer);
  }

  /** The first customer of the book with this name (case and spacing aside); null when none. */
  named(name: string): Customer | null {
    const first = this.#byName.get(nameKey(name))?.[0];
    return first === undefined ? null : (this.#customers[first] as Customer);
  }

  add(customer: Customer): void {
    const at = this.#customers.length;
    this.#customers.push(customer);
    this.#place(customer, at, insertPlace);
  }

  /** Puts `customer` where `previous` stood (an update keeps its place in the book). */
  replace(previous: Customer, customer: Customer): void {
    const at = this.#customers.indexOf(previous);
    if (at < 0) return this.add(customer);
    this.#place(previous, at, removePlace);
    this.#customers[at] = customer;
    this.#place(customer, at, insertPlace);
  }

  conflictOf(draft: ParsedCustomerDraft): BookConflict | null {
    const other = (places: readonly number[] | undefined) => {
      for (const at of places ?? []) {
        const customer = this.#customers[at] as Customer;
        if (customer.key !== draft.key) return customer;
      }
      return null;
    };
    const sameName = other(this.#byName.get(nameKey(draft.name)));
    if (sameName) return { field: 'name', message: `A customer named “${sameName.name}” is in the book already: merge them, or choose another name` };
    for (const id of draft.externalIds) {
      const owner = other(this.#byExternalId.get(id));
      if (owner) return { field: 'externalIds', message: `The external customer id ${id} belongs to “${owner.name}” already` };
    }
    for (const account of draft.accounts) {
      const owner = other(this.#byAccount.get(accountKey(account)));
      if (owner) return { field: 'accounts', message: `The account ${account} belongs to “${owner.name}” already` };
    }
    return null;
  }

  #place(customer: Customer, at: number, change: (places: number[], at: number) => void): void {
    const keys: Array<[Map<string, number[]>, Iterable<string>]> = [
      [this.#byName, [nameKey(customer.name)]],
      [this.#byExternalId, new Set(customer.externalIds)],
      [this.#byAccount, new Set(customer.accounts.map(accountKey))],
    ];
    for (const [map, values] of keys) {
      for (const value of values) {
        let places = map.get(value);
        if (!places) map.set(value, (places = []));
        change(places, at);
      }
    }
  }
}

/** Places stay ascending: the first is the customer a scan of the book meets first. */
function insertPlace(places: number[], at: number): void {
  let i = places.length;
  while (i > 0 && (places[i - 1] as number) > at) i -= 1;
  if (places[i - 1] !== at) places.splice(i, 0, at);
}

function removePlace(places: number[], at: number): void {
  const i = places.indexOf(at);
  if (i >= 0) places.splice(i, 1);
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
