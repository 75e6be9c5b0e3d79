import type { Customer } from '../ipc/customers.js';

/** How an account is compared: people and services differ in case and spacing, never in meaning. */
export function accountKey(account: string): string {
  return account.trim().normalize('NFC').toLowerCase();
}

/** How a name is compared for duplicates: the same words in another case are the same customer. */
export const nameKey = accountKey;

/** A linked account as the accounts list gives it: a policy names it by `accountName`, a person may type either. */
export interface AccountAlias {
  readonly accountId?: string | undefined;
  readonly accountName?: string | undefined;
}

/**
 * Which customer a policy belongs to. A capacity policy through its account
 * (`cspAccountName`, which is the linked account's name; a customer may list
 * the account by id or by name), a DR policy through its external customer id
 * (`cid_ext`, exact: the service tells ids apart by case). Maps only, so a name
 * such as `__proto__` or `constructor` is a name like any other.
 */
export class CustomerMatcher {
  readonly #byAccount = new Map<string, Customer>();
  readonly #byExternalId = new Map<string, Customer>();
  readonly #accountsOf = new Map<string, Set<string>>();
  readonly #byKey = new Map<string, Customer>();

  constructor(customers: readonly Customer[], linkedAccounts: readonly AccountAlias[] = []) {
    // id <-> name of each linked account, so either spelling in the book finds the policies.
    const aliases = new Map<string, string[]>();
    for (const account of linkedAccounts) {
      const id = account.accountId ? accountKey(account.accountId) : '';
      const name = account.accountName ? accountKey(account.accountName) : '';
      if (!id || !name) continue;
      aliases.set(id, [...(aliases.get(id) ?? []), name]);
      aliases.set(name, [...(aliases.get(name) ?? []), id]);
    }
    for (const customer of customers) {
      this.#byKey.set(customer.key, customer);
      const keys = new Set<string>();
      for (const account of customer.accounts) {
        const key = accountKey(account);
        keys.add(key);
        for (const alias of aliases.get(key) ?? []) keys.add(alias);
      }
      for (const key of keys) if (!this.#byAccount.has(key)) this.#byAccount.set(key, customer);
      this.#accountsOf.set(customer.key, keys);
      for (const id of customer.externalIds) if (!this.#byExternalId.has(id.trim())) this.#byExternalId.set(id.trim(), customer);
    }
  }

  /** The customer owning a capacity policy's account; null when it belongs to none (unassigned). */
  ofAccount(cspAccountName: string | undefined | null): Customer | null {
    if (!cspAccountName) return null;
    return this.#byAccount.get(accountKey(cspAccountName)) ?? null;
  }

  /** The customer owning an account key as `accountKeysOf` gives them (already normalised); null when none. */
  ofAccountKey(key: string): Customer | null {
    return this.#byAccount.get(key) ?? null;
  }

  /** The customer a DR policy's external customer id belongs to; null when none. */
  ofExternalId(cidExt: string | undefined | null): Customer | null {
    if (!cidExt) return null;
    return this.#byExternalId.get(cidExt.trim()) ?? null;
  }

  byKey(key: string): Customer | null {
    return this.#byKey.get(key) ?? null;
  }

  /** Every account key (ids and names) a customer's policies may carry. */
  accountKeysOf(key: string): ReadonlySet<string> {
    return this.#accountsOf.get(key) ?? new Set();
  }

  /** Every account key that belongs to some customer: a policy outside them is unassigned. */
  assignedAccountKeys(): ReadonlySet<string> {
    return new Set(this.#byAccount.keys());
  }
}
