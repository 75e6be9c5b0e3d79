import { SvelteMap } from 'svelte/reactivity';
import type { AppError } from '../../shared/ipc/result.js';
import type { WindowsRead } from '../lib/read-in-windows.js';
import { RowSelection } from '../lib/row-selection.js';
import { sessionScope } from '../lib/session-scope.js';


/**
 * What a selection reads of a virtual list (rows load as they come into
 * view): its loaded rows by index, and reads of the rows it has not loaded.
 */
export interface SelectableRows<T> {
  readonly total: number | null;
  row(index: number): T | undefined;
  /** Every loaded row with its index, in the list's order. */
  loadedEntries(): ReadonlyArray<readonly [number, T]>;
  /** The rows from `start` (inclusive) to `end` (exclusive) of the list as filtered, read from its source. */
  readRange(start: number, end: number): Promise<WindowsRead<T>>;
  /** Every row of the list as filtered ("select every row"). */
  readAll(): Promise<WindowsRead<T>>;
  /**
   * False while the rows shown are not the list's final answer (the worklist's first rows, its count still being
   * made): nothing is taken then, so a bulk action never acts on a count or a range that is not final.
   */
  readonly settled?: boolean;
}

/**
 * The selected rows of a virtual list, for its bulk actions: the selection
 * keeps the record of each row it took, since a row scrolled away may be
 * unloaded. A range (Shift+click) takes every row between its ends, reading
 * the ones never loaded; "select every row" reads the whole list as filtered.
 * A new filter starts from nothing (the view calls `forQuery`), so a bulk
 * action never reaches a row that is not in the list as shown.
 */
export class ListSelection<T> {
  readonly selection = new RowSelection();
  readonly #list: SelectableRows<T>;
  readonly #idOf: (row: T) => string;
  /** The record of every row taken since the last clear (reactive: a record read again shows in the bulk bar). */
  readonly #rows = new SvelteMap<string, T>();
  /** Where a range runs from: the last row clicked, or where the current run of Shift+arrows began (as RowSelection anchors). */
  #anchorIndex: number | null = null;
  #extending = false;
  #query = '';
  /** Counts the clears, so a read that a clear overtook lands nowhere. */
  #generation = 0;
  /** "Select every row" or a range is reading the list. */
  reading = $state(false);
  /** The list (or a range) held more rows than one selection takes. */
  capped = $state(false);
  error = $state<AppError | null>(null);

  constructor(list: SelectableRows<T>, idOf: (row: T) => string, options: { readonly perSession?: boolean } = {}) {
    this.#list = list;
    this.#idOf = idOf;
    // Another user never sees the last one's selection.
    if (options.perSession ?? true) sessionScope.register(() => this.clear());
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
    return row !== undefined && this.selection.has(this.#idOf(row));
  }

  /** The selected rows, in the order they were taken. */
  get rows(): T[] {
    return [...this.selection.ids].flatMap((id) => {
      const row = this.#rows.get(id);
      return row === undefined ? [] : [row];
    });
  }

  /** The header checkbox: every row of the list, some, or none. */
  get state(): 'all' | 'some' | 'none' {
    if (this.size === 0) return 'none';
    // A count still being made is not the list's: "all" is said of the final one only.
    if (this.#list.settled === false) return 'some';
    return this.#list.total !== null && this.size >= this.#list.total ? 'all' : 'some';
  }

  /**
   * A click or Space on the row at `index`; with `range` (Shift), every row
   * from the last one clicked to this one takes its new state, also the rows
   * between that were never loaded (read first).
   */
  toggle(index: number, range = false): Promise<void> {
    const row = this.#list.row(index);
    if (row === undefined || this.#list.settled === false) return Promise.resolve();
    const anchor = this.#anchorIndex;
    this.#anchorIndex = index;
    this.#extending = false;
    if (!range || anchor === null || anchor === index) return this.#toggleOver(row, [row]);
    const [start, end] = anchor < index ? [anchor, index + 1] : [index, anchor + 1];
    const loaded = this.#loadedBetween(start, end);
    if (loaded !== null) return this.#toggleOver(row, loaded);
    if (this.reading) return Promise.resolve();
    return this.#read(() => this.#list.readRange(start, end)).then((read) => {
      if (read === null) return;
      if (read.capped) this.capped = true;
      return this.#toggleOver(row, read.rows);
    });
  }

  /** Shift+arrow: the cursor moved from one row to the next (both in view, so loaded). */
  extend(from: number, to: number): void {
    const fromRow = this.#list.row(from);
    const toRow = this.#list.row(to);
    if (fromRow === undefined || toRow === undefined || this.#list.settled === false) return;
    if (!this.#extending) this.#anchorIndex = from;
    this.#extending = true;
    const loaded = this.#list.loadedEntries().map(([, row]) => row);
    this.selection.extend(this.#idOf(fromRow), this.#idOf(toRow), loaded.map(this.#idOf));
    this.#remember(loaded);
  }

  /** Ctrl/Cmd+A and the header checkbox: every row of the list as filtered, or none when every one already is. */
  async toggleAll(): Promise<void> {
    if (this.reading || this.#list.settled === false) return;
    if (this.state === 'all') return this.clear();
    const read = await this.#read(() => this.#list.readAll());
    if (read === null) return;
    for (const row of read.rows) this.#rows.set(this.#idOf(row), row);
    this.selection.toggleAll(read.rows.map(this.#idOf));
    this.#anchorIndex = null;
    this.#extending = false;
    this.capped = read.capped;
  }

  /** The list's filter as one key: a different one clears the selection. */
  forQuery(key: string): void {
    if (key === this.#query) return;
    this.#query = key;
    this.clear();
  }

  /** Rows the app got back after a change: the selection's records follow them. */
  refreshRows(rows: readonly T[]): void {
    for (const row of rows) if (this.#rows.has(this.#idOf(row))) this.#rows.set(this.#idOf(row), row);
  }

  /** A row that left the list as shown (its entry changed under a filter): no bulk action may reach it. */
  drop(id: string): void {
    if (!this.selection.has(id)) return;
    this.selection.keepOnly([...this.selection.ids].filter((kept) => kept !== id));
    this.#rows.delete(id);
  }

  clear(): void {
    this.#generation += 1;
    this.selection.clear();
    this.#rows.clear();
    this.#anchorIndex = null;
    this.#extending = false;
    this.capped = false;
    this.error = null;
    this.reading = false;
  }

  /** `row` toggled, as the end of a range over `rows` (in the list's order) when there is more than one. */
  #toggleOver(row: T, rows: readonly T[]): Promise<void> {
    this.selection.toggle(this.#idOf(row), rows.map(this.#idOf), rows.length > 1);
    this.#remember(rows);
    return Promise.resolve();
  }

  /** The rows from `start` to `end` when every one is loaded; null when one is not. */
  #loadedBetween(start: number, end: number): T[] | null {
    const rows: T[] = [];
    for (let index = start; index < end; index += 1) {
      const row = this.#list.row(index);
      if (row === undefined) return null;
      rows.push(row);
    }
    return rows;
  }

  /** One read of the list, dropped when the selection was cleared (a new filter) meanwhile. */
  async #read(read: () => Promise<WindowsRead<T>>): Promise<{ rows: T[]; capped: boolean } | null> {
    const generation = this.#generation;
    this.reading = true;
    this.error = null;
    try {
      const result = await read();
      if (generation !== this.#generation) return null;
      if (!result.ok) {
        this.error = result.error;
        return null;
      }
      return result;
    } finally {
      if (generation === this.#generation) this.reading = false;
    }
  }

  /** Keeps the record of each of `rows` that is selected, for the bulk action. */
  #remember(rows: readonly T[]): void {
    for (const row of rows) {
      const id = this.#idOf(row);
      if (this.selection.has(id) && this.#rows.get(id) !== row) this.#rows.set(id, row);
    }
  }
}
