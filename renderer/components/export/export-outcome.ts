import type { AppError } from '../../../shared/ipc/result.js';
import { toasts } from '../ui/toasts.svelte.js';

/** What the main process did with an export, as every export button says it. */
export type ExportOutcome =
  | { readonly outcome: 'saved'; readonly path: string; readonly rows: number }
  | { readonly outcome: 'download'; readonly fileName: string; readonly rows: number }
  | { readonly outcome: 'canceled' };

/** One toast per export: where it went and how many rows (a closed save dialog says nothing). */
export function announceExport(saved: ExportOutcome): void {
  if (saved.outcome === 'download') toasts.success(`Exported ${rowsText(saved.rows)}`, { detail: `Downloaded as ${saved.fileName}` });
  else if (saved.outcome === 'saved') toasts.success(`Exported ${rowsText(saved.rows)}`, { detail: `Saved to ${saved.path}` });
}

export function exportFailed(error: AppError): void {
  toasts.error('The export failed', { detail: error.message });
}

function rowsText(rows: number): string {
  return `${rows} ${rows === 1 ? 'row' : 'rows'}`;
}
