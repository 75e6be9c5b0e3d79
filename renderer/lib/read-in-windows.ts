import type { AppError, Result } from '../../shared/ipc/result.js';

/** The most rows one export or one selection ("select every row", a range) carries: the CSV channel's limit. */
export const EXPORT_MAX_ROWS = 20_000;

/** A window of a list as its channel answers it. */
export interface ListWindow<T> {
  readonly rows: readonly T[];
  readonly offset: number;
  /** Rows of the whole list. */
  readonly total: number;
}

export type WindowsRead<T> = { ok: true; rows: T[]; capped: boolean } | { ok: false; error: AppError };

/**
 * Rows `start` to `end` (exclusive; none given: to the end of the list) read
 * in windows of at most `size` rows, and never more than EXPORT_MAX_ROWS
 * (`capped` says there were more). A window may answer fewer rows than asked
 * (the service's pages are smaller): the next one starts where it ended.
 */
export async function readInWindows<T>(
  read: (offset: number, limit: number) => Promise<Result<ListWindow<T>>>,
  { start = 0, end = Number.POSITIVE_INFINITY, size = 500 }: { start?: number; end?: number; size?: number } = {},
): Promise<WindowsRead<T>> {
  const rows: T[] = [];
  const last = Math.min(end, start + EXPORT_MAX_ROWS);
  let total = 0;
  let offset = start;
  while (offset < last) {
    const result = await read(offset, Math.min(size, last - offset));
    if (!result.ok) return { ok: false, error: result.error };
    rows.push(...result.value.rows);
    total = result.value.total;
    const reached = result.value.offset + result.value.rows.length;
    if (result.value.rows.length === 0 || reached >= Math.min(total, last)) break;
    offset = reached;
  }
  return { ok: true, rows: rows.slice(0, last - start), capped: Math.min(total, end) > last || rows.length > last - start };
}
