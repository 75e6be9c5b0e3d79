import type { CapacityRow } from '../../shared/api/readers.js';
import type { LocalCapacityQuery } from '../../shared/ipc/offline.js';
import type { SaveSheetInput } from '../../shared/ipc/export-sheet.js';
import type { AppError } from '../../shared/ipc/result.js';
import { exportSheet, type CapacityColumn } from '../components/capacity/capacity-columns.js';
import { api } from '../lib/api.js';
import { statusLabel } from '../components/ui/status.js';

/** The most rows one export (or one "select every row") carries: the CSV channel's limit. */
export const EXPORT_MAX_ROWS = 20_000;
const WINDOW = 500;

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

export type CollectRowsResult = { ok: true; rows: CapacityRow[]; capped: boolean } | { ok: false; error: AppError };

/**
 * Every row of the capacity list as it is shown (status, search and sort
 * applied), or those from `start` to `end` (exclusive), in windows, up to
 * EXPORT_MAX_ROWS (`capped` says there were more).
 */
export async function collectCapacityRows(list: CapacityListQuery, start = 0, end = Number.POSITIVE_INFINITY): Promise<CollectRowsResult> {
  const rows: CapacityRow[] = [];
  const last = Math.min(end, start + EXPORT_MAX_ROWS);
  let total = 0;
  for (let offset = start; offset < last; offset += WINDOW) {
    const result = await api.capacity.list({
      offset,
      limit: Math.min(WINDOW, last - offset),
      text: list.text,
      sortBy: list.sortBy,
      sortOrder: list.sortOrder,
      ...(list.status ? { status: list.status } : {}),
      ...(list.customer ? { customer: list.customer } : {}),
      ...(list.queryFilters ? { filters: list.queryFilters } : {}),
    });
    if (!result.ok) return { ok: false, error: result.error };
    rows.push(...result.value.rows);
    total = result.value.total;
    const reached = result.value.offset + result.value.rows.length;
    if (result.value.rows.length === 0 || reached >= Math.min(total, last)) break;
    // The service's pages are smaller than a window: go on from where the answer ended.
    offset = reached - WINDOW;
  }
  return { ok: true, rows: rows.slice(0, last - start), capped: Math.min(total, end) > last || rows.length > last - start };
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
