import type { AccountRow } from '../../../shared/api/readers.js';

export type AccountColumn = keyof AccountRow;
export type SortDirection = 'asc' | 'desc';
export interface AccountSort {
  readonly column: AccountColumn;
  readonly direction: SortDirection;
}

export const DEFAULT_SORT: AccountSort = { column: 'accountName', direction: 'asc' };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Accounts whose id, name, provider or status contains every word typed (any order, any case). */
export function filterAccounts<A extends AccountRow>(accounts: readonly A[], query: string): A[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...accounts];
  return accounts.filter((account) => {
    const haystack = [account.accountId, account.accountName, account.provider, account.status].join(' ').toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Sorted by one column; linking time as time, the rest as the user's language orders words and numbers. */
export function sortAccounts<A extends AccountRow>(accounts: readonly A[], sort: AccountSort): A[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compare = (a: A, b: A): number =>
    sort.column === 'linkedAt'
      ? byTime(a.linkedAt, b.linkedAt)
      : collator.compare(a[sort.column] ?? '', b[sort.column] ?? '');
  // Ties keep a stable, meaningful order: by name, then id.
  return [...accounts].sort(
    (a, b) => sign * compare(a, b) || collator.compare(a.accountName ?? '', b.accountName ?? '') || collator.compare(a.accountId, b.accountId),
  );
}

/** Earlier first; a time the service did not send sorts after every known one. */
function byTime(a: string | undefined, b: string | undefined): number {
  const x = a ? Date.parse(a) : Number.NaN;
  const y = b ? Date.parse(b) : Number.NaN;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? 0 : Number.isNaN(x) ? 1 : -1;
  return x - y;
}

/** Clicking the sorted column flips it; another column starts ascending (newest first for dates). */
export function nextSort(current: AccountSort, column: AccountColumn): AccountSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: column === 'linkedAt' ? 'desc' : 'asc' };
}
