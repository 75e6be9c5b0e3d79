import type { SortOrder } from '../../shared/api/paging.js';
import type { Indexed } from './model.js';

/**
 * One owner's policies in creation order, whole and per status. Kept sorted
 * as statuses change, so a list request only slices: nothing is sorted or
 * filtered per request, even at 100,000 policies.
 */
export class StatusIndex<T extends Indexed> {
  private readonly all: T[] = [];
  private readonly byStatus = new Map<string, T[]>();

  add(item: T, status: string): void {
    insertSorted(this.all, item);
    insertSorted(this.bucket(status), item);
  }

  move(item: T, from: string, to: string): void {
    if (from === to) return;
    removeSorted(this.bucket(from), item);
    insertSorted(this.bucket(to), item);
  }

  /** All items, or those of one status, oldest first. */
  items(status?: string): readonly T[] {
    return status === undefined ? this.all : (this.byStatus.get(status) ?? []);
  }

  private bucket(status: string): T[] {
    let list = this.byStatus.get(status);
    if (!list) {
      list = [];
      this.byStatus.set(status, list);
    }
    return list;
  }
}

/** Index of the first item whose seq is >= the given one. */
function lowerBound<T extends Indexed>(list: readonly T[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as T).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted<T extends Indexed>(list: T[], item: T): void {
  // Seeding appends in order, so the common case is a plain push.
  const last = list[list.length - 1];
  if (!last || last.seq < item.seq) list.push(item);
  else list.splice(lowerBound(list, item.seq), 0, item);
}

function removeSorted<T extends Indexed>(list: T[], item: T): void {
  const at = lowerBound(list, item.seq);
  if (list[at] === item) list.splice(at, 1);
}

/** One page of an oldest-first list, in the requested order. A page past the end is empty. */
export function pageOfItems<T>(items: readonly T[], page: number, pageSize: number, order: SortOrder): T[] {
  const skip = (page - 1) * pageSize;
  if (skip >= items.length) return [];
  if (order === 'asc') return items.slice(skip, skip + pageSize);
  const end = items.length - skip;
  return items.slice(Math.max(0, end - pageSize), end).reverse();
}
