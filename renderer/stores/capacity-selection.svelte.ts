import { SvelteMap } from 'svelte/reactivity';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { AppError } from '../../shared/ipc/result.js';
import { RowSelection } from '../lib/row-selection.js';
import { sessionScope } from '../lib/session-scope.js';
import { collectCapacityRows, type CapacityListQuery } from './capacity-export.js';

/** What the selection reads of the list: its loaded rows by index, and its query (for "select every row"). */
export interface SelectableList extends CapacityListQuery {
  readonly total: number | null;
  row(index: number): CapacityRow | undefined;
  /** Every loaded row with its index, in the list's order. */
  loadedEntries(): ReadonlyArray<readonly [number, CapacityRow]>;
}

/**
 * The capacity list's selected rows, for its bulk actions. The list is
 * virtual (rows load as they come into view), so the selection keeps the
 * record of each row it took, and a range takes the loaded rows between its
 * ends. "Select every row" reads the whole filtered list through the
 * export's collector. A new filter, search or customer starts from nothing
 * (the view calls `forQuery`), so a bulk action never reaches a row that is
 * not in the list as shown.
 */
export class CapacitySelection {
  readonly selection = new RowSelection();
  readonly #list: SelectableList;
  /** The record of every row taken since the last clear (reactive: a record read again shows in the bulk bar). */
  readonly #rows = new SvelteMap<string, CapacityRow>();
  #query = '';
  /** "Select every row" is reading the list. */
  selectingAll = $state(false);
  /** The list held more rows than one selection takes. */
  capped = $state(false);
  error = $state<AppError | null>(null);

  constructor(list: SelectableList) {
    this.#list = list;
    // Another user never sees the last one's selection.
    sessionScope.register(() => this.clear());
  }

  get size(): number {
    return this.selection.size;
  }

  has(id: string): boolean {
    return this.selection.has(id);
  }

  /** The row at `index` of the list is selected (false while it is not loaded). */
  isSelected(index: number): boolean {
    const row = this.#list.row(index);
    return row !== undefined && this.selection.has(row.cidrId);
  }

  /** The selected rows, in the order they were taken. */
  get rows(): CapacityRow[] {
    return [...this.selection.ids].flatMap((id) => {
      const row = this.#rows.get(id);
      return row ? [row] : [];
    });
  }

  /** The header checkbox: every row of the list, some, or none. */
  get state(): 'all' | 'some' | 'none' {
    if (this.size === 0) return 'none';
    return this.#list.total !== null && this.size >= this.#list.total ? 'all' : 'some';
  }

  /** A click (with Shift: a range from the last one) or Space on the row at `index`. */
  toggle(index: number, range = false): void {
    const row = this.#list.row(index);
    if (!row) return;
    this.selection.toggle(row.cidrId, this.#order(), range);
    this.#remember();
  }

  /** Shift+arrow: the cursor moved from one row to the next. */
  extend(from: number, to: number): void {
    const fromRow = this.#list.row(from);
    const toRow = this.#list.row(to);
    if (!fromRow || !toRow) return;
    this.selection.extend(fromRow.cidrId, toRow.cidrId, this.#order());
    this.#remember();
  }

  /** Ctrl/Cmd+A and the header checkbox: every row of the list as filtered, or none when every one already is. */
  async toggleAll(): Promise<void> {
    if (this.selectingAll) return;
    if (this.state === 'all') return this.clear();
    this.selectingAll = true;
    this.error = null;
    const query = this.#query;
    try {
      const collected = await collectCapacityRows(this.#list);
      // The filter changed while the rows were read: they are not the list shown now.
      if (query !== this.#query) return;
      if (!collected.ok) {
        this.error = collected.error;
        return;
      }
      for (const row of collected.rows) this.#rows.set(row.cidrId, row);
      this.selection.toggleAll(collected.rows.map((row) => row.cidrId));
      this.capped = collected.capped;
    } finally {
      this.selectingAll = false;
    }
  }

  /** The list's filter, search or customer as one key: a different one clears the selection. */
  forQuery(key: string): void {
    if (key === this.#query) return;
    this.#query = key;
    this.clear();
  }

  /** Rows the app got back after a change: the selection's records follow them. */
  refreshRows(rows: readonly CapacityRow[]): void {
    for (const row of rows) if (this.#rows.has(row.cidrId)) this.#rows.set(row.cidrId, row);
  }

  clear(): void {
    this.selection.clear();
    this.#rows.clear();
    this.capped = false;
    this.error = null;
  }

  /** The loaded rows' ids in the list's order (a range runs over them). */
  #order(): string[] {
    return this.#list.loadedEntries().map(([, row]) => row.cidrId);
  }

  /** Keeps the record of each loaded row that is selected, for the bulk action. */
  #remember(): void {
    for (const [, row] of this.#list.loadedEntries()) {
      if (this.selection.has(row.cidrId) && this.#rows.get(row.cidrId) !== row) this.#rows.set(row.cidrId, row);
    }
  }
}

/** A query key of the capacity list's filter (not its sort: a new order keeps the selection). */
export function selectionQueryKey(list: CapacityListQuery): string {
  return JSON.stringify([list.status, list.text.trim(), list.customer ?? null, list.queryFilters ?? null]);
}
