import type { ParsedLocalCapacityQuery, LocalSortColumn } from '../../../shared/ipc/offline.js';

export type Key = string | number;

/** How an index reads its rows: a sort key per column, the searchable text, the status. */
export interface RowView<Row> {
  readonly sortKeys: Readonly<Record<LocalSortColumn, (row: Row) => Key>>;
  /** Fields a free-text search looks at, joined into one string. */
  readonly searchText: (row: Row) => string;
  readonly status: (row: Row) => string;
}

/**
 * Answers filter, search and sort over a list held in the main process and
 * hands back one window of rows, so the renderer never receives the whole
 * list. Each sort order is computed once and kept; a query is then a single
 * pass over precomputed lower-case search text.
 */
export class SortedRowIndex<Row> {
  readonly #rows: readonly Row[];
  readonly #view: RowView<Row>;
  readonly #haystacks: readonly string[];
  readonly #orders = new Map<LocalSortColumn, Uint32Array>();
  readonly #descending = new Map<string, Uint32Array>();
  /**
   * The rows the last query matched, in display order. Typing narrows a search
   * ("m5" after "m"), so the next keystroke only needs to look at these.
   */
  #last: { readonly key: string; readonly needle: string; readonly matches: Uint32Array } | null = null;

  constructor(rows: readonly Row[], view: RowView<Row>) {
    this.#rows = rows;
    this.#view = view;
    this.#haystacks = rows.map((row) => view.searchText(row).toLowerCase());
  }

  get size(): number {
    return this.#rows.length;
  }

  query(query: ParsedLocalCapacityQuery): {
    rows: Row[];
    total: number;
  } {
    const needle = query.text.trim().toLowerCase();
    const key = `${query.status ?? ''}|${query.sortBy}|${query.sortOrder}`;
    const last = this.#last;
    const candidates =
      last && last.key === key && needle.startsWith(last.needle) ? last.matches : this.#displayOrder(query.sortBy, query.sortOrder);
    const matches = new Uint32Array(candidates.length);
    let total = 0;
    for (let i = 0; i < candidates.length; i += 1) {
      const index = candidates[i] as number;
      if (query.status && this.#view.status(this.#rows[index] as Row) !== query.status) continue;
      if (needle && !(this.#haystacks[index] as string).includes(needle)) continue;
      matches[total] = index;
      total += 1;
    }
    this.#last = { key, needle, matches: matches.subarray(0, total) };
    const end = Math.min(total, query.offset + query.limit);
    const rows: Row[] = [];
    for (let i = query.offset; i < end; i += 1) rows.push(this.#rows[matches[i] as number] as Row);
    return { rows, total };
  }

  /** Row indices in display order for a column and direction (the reverse is kept too). */
  #displayOrder(column: LocalSortColumn, direction: 'asc' | 'desc'): Uint32Array {
    const ascending = this.#order(column);
    if (direction === 'asc') return ascending;
    const cacheKey = `${column}:desc`;
    let descending = this.#descending.get(cacheKey);
    if (!descending) {
      descending = ascending.slice().reverse();
      this.#descending.set(cacheKey, descending);
    }
    return descending;
  }

  #order(column: LocalSortColumn): Uint32Array {
    let order = this.#orders.get(column);
    if (!order) {
      const keyOf = this.#view.sortKeys[column];
      const keys = this.#rows.map(keyOf);
      order = Uint32Array.from(this.#rows.keys());
      // Ties keep list order (by index) so paging is stable.
      order.sort((a, b) => {
        const ka = keys[a] as Key;
        const kb = keys[b] as Key;
        return ka < kb ? -1 : ka > kb ? 1 : a - b;
      });
      this.#orders.set(column, order);
    }
    return order;
  }
}
