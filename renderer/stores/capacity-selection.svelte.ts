import type { CapacityRow } from '../../shared/api/readers.js';
import { collectCapacityRows, type CapacityListQuery } from './capacity-export.js';
import { ListSelection } from './list-selection.svelte.js';

/** What the selection reads of the list: its loaded rows by index, and its query (for a range and "select every row"). */
export interface SelectableList extends CapacityListQuery {
  readonly total: number | null;
  row(index: number): CapacityRow | undefined;
  /** Every loaded row with its index, in the list's order. */
  loadedEntries(): ReadonlyArray<readonly [number, CapacityRow]>;
}

/**
 * The capacity list's selected rows, for its bulk actions. The list is
 * virtual, so a range over rows never loaded and "select every row" read the
 * list as filtered through the export's collector (at most EXPORT_MAX_ROWS, renderer/lib/read-in-windows.ts).
 */
export class CapacitySelection extends ListSelection<CapacityRow> {
  constructor(list: SelectableList) {
    super(
      {
        get total() {
          return list.total;
        },
        row: (index) => list.row(index),
        loadedEntries: () => list.loadedEntries(),
        readRange: (start, end) => collectCapacityRows(list, start, end),
        readAll: () => collectCapacityRows(list),
      },
      (row) => row.cidrId,
    );
  }
}

/** A query key of the capacity list's filter (not its sort: a new order keeps the selection). */
export function selectionQueryKey(list: CapacityListQuery): string {
  return JSON.stringify([list.status, list.text.trim(), list.customer ?? null, list.queryFilters ?? null]);
}
