import type { LinkedAccount } from '../../../shared/api/accounts.js';

export type AccountColumn = keyof LinkedAccount;
export type SortDirection = 'asc' | 'desc';
export interface AccountSort {
  readonly column: AccountColumn;
  readonly direction: SortDirection;
}

export const DEFAULT_SORT: AccountSort = { column: 'accountName', direction: 'asc' };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Accounts whose id, name, provider or status contains every word typed (any order, any case). */
export function filterAccounts(accounts: readonly LinkedAccount[], query: string): LinkedAccount[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...accounts];
  return accounts.filter((account) => {
    const haystack = [account.accountId, account.accountName, account.provider, account.status].join(' ').toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Sorted by one column; linking time as time, the rest as the user's language orders words and numbers. */
export function sortAccounts(accounts: readonly LinkedAccount[], sort: AccountSort): LinkedAccount[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compare = (a: LinkedAccount, b: LinkedAccount): number =>
    sort.column === 'linkedAt'
      ? Date.parse(a.linkedAt) - Date.parse(b.linkedAt)
      : collator.compare(a[sort.column], b[sort.column]);
  // Ties keep a stable, meaningful order: by name, then id.
  return [...accounts].sort(
    (a, b) => sign * compare(a, b) || collator.compare(a.accountName, b.accountName) || collator.compare(a.accountId, b.accountId),
  );
}

/** Clicking the sorted column flips it; another column starts ascending (newest first for dates). */
export function nextSort(current: AccountSort, column: AccountColumn): AccountSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: column === 'linkedAt' ? 'desc' : 'asc' };
}
