import type { SaveCsvInput } from '../../../shared/ipc/export.js';
import type { AppError } from '../../../shared/ipc/result.js';

/** The rows of a list as shown, ready for "Export CSV". */
export type ExportRows = Pick<SaveCsvInput, 'header' | 'rows'>;
export type CollectResult = { ok: true; data: ExportRows } | { ok: false; error: AppError };
