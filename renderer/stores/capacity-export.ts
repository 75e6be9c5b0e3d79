import type { CapacityRow } from '../../shared/api/readers.js';
import type { LocalCapacityQuery } from '../../shared/ipc/offline.js';
import type { SaveSheetInput } from '../../shared/ipc/export-sheet.js';
import type { AppError } from '../../shared/ipc/result.js';
import { exportSheet, type CapacityColumn } from '../components/capacity/capacity-columns.js';
import { api } from '../lib/api.js';
import { readInWindows, type WindowsRead } from '../lib/read-in-windows.js';
import { statusLabel } from '../components/ui/status.js';

export type SheetRows = Pick<SaveSheetInput, 'columns' | 'rows'>;
export type CollectSheetResult = { ok: true; data: SheetRows } | { ok: false; error: AppError };

/** The list's query as the export and "select every row" read it. */
export interface CapacityListQuery {
  readonly status: LocalCapacityQuery['status'] | null;
  readonly text: string;
  readonly sortBy: NonNullable<LocalCapacityQuery['sortBy']>;
  readonly sortOrder: NonNullable<LocalCapacityQuery['sortOrder']>;
  readonly customer?: LocalCapacityQuery['customer'] | null;
  readonly queryFilters?: LocalCapacityQuery['filters'];
}

/**
 * Every row of the capacity list as it is shown (status, search and sort
 * applied), or those from `start` to `end` (exclusive), in windows, up to
 * EXPORT_MAX_ROWS (`capped` says there were more).
 */
export function collectCapacityRows(list: CapacityListQuery, start = 0, end = Number.POSITIVE_INFINITY): Promise<WindowsRead<CapacityRow>> {
  return readInWindows(
    (offset, limit) =>
      api.capacity.list({
        offset,
        limit,
        text: list.text,
        sortBy: list.sortBy,
        sortOrder: list.sortOrder,
        ...(list.status ? { status: list.status } : {}),
        ...(list.customer ? { customer: list.customer } : {}),
        ...(list.queryFilters ? { filters: list.queryFilters } : {}),
      }),
    { start, end },
  );
}

/** Every row of the capacity list as it is shown, with the columns shown and their labels, for the CSV and XLSX exports. */
export async function collectCapacityExport(columns: readonly CapacityColumn[], list: CapacityListQuery): Promise<CollectSheetResult> {
  const collected = await collectCapacityRows(list);
  return collected.ok ? { ok: true, data: exportSheet(columns, collected.rows) } : collected;
}

/** "Capacity policies active matching web": what an export of the list as shown holds, for its file name. */
export function capacityExportName(list: { readonly status: LocalCapacityQuery['status'] | null; readonly text: string }): string {
  const text = list.text.trim();
  return ['Capacity policies', list.status ? statusLabel(list.status).toLowerCase() : '', text ? `matching ${text}` : ''].filter(Boolean).join(' ');
}
