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
