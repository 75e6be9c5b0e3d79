/** The header's aria-sort value: how a table is sorted by this column. */
export type AriaSort = 'ascending' | 'descending' | 'none';

/** A column of <VirtualTable>. */
export interface TableColumn {
  readonly id: string;
  readonly label: string;
  /** A CSS grid track, e.g. "minmax(8rem, 1fr)" or "7rem". */
  readonly width: string;
  readonly align?: 'start' | 'end';
  /** Shown to screen readers instead of `label` when the header is abbreviated. */
  readonly srLabel?: string;
  /** True when the table can be sorted by this column (its header is then a SortButton). */
  readonly sortable?: boolean;
  /** The column's width in CSS pixels, when the person can resize it. */
  readonly resizeWidth?: number;
}

/**
 * A cell that is text alone (keys16): its text written straight into the gridcell, with the cell's class and title,
 * no element of its own. A key that replaces every row on screen laid out, styled and patched one element fewer a
 * cell (about 270 of the 20-odd rows drawn), and Svelte ran no snippet for it.
 */
export interface PlainCell {
  readonly text: string;
  /** Classes added to the gridcell's own (e.g. "mono", "muted"). */
  readonly className: string;
  readonly title: string | undefined;
}

/** The order of a grid's rows, as its caller holds it. */
export interface TableSort {
  /** The id of the column sorted by. */
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

export function ariaSortOf(sort: TableSort | undefined, column: string): AriaSort {
  if (!sort || sort.column !== column) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

/**
 * A grid whose rows can be selected: a checkbox column comes first, the
 * header's checkbox takes every row (mixed when some are), Space toggles the
 * row under the cursor, Shift+Up/Down extend from it and Ctrl/Cmd+A takes
 * every row.
 */
export interface TableSelection {
  isSelected(index: number): boolean;
  /** The header checkbox: every row, some, or none. */
  readonly state: 'all' | 'some' | 'none';
  /** A click, Space (`range`: with Shift, from the last one). */
  toggle(index: number, range: boolean): void;
  /** Shift+arrow: the cursor moved from one row to the next. */
  extend(from: number, to: number): void;
  toggleAll(): void;
  /** The header checkbox's name, e.g. "Select every policy of the list". */
  readonly allLabel: string;
  /** A row's checkbox name, e.g. "Select sc_1000001 Web tier". */
  rowLabel(index: number): string;
  /** True while nothing can be selected (the worklist still counting its rows): the checkboxes show, disabled. */
  readonly disabled?: boolean;
}
