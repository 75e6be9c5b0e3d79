import { toCsv } from '../../../shared/format/csv.js';
import type { SaveCsvResult } from '../../../shared/ipc/export.js';
import type { ParsedInput } from '../../../shared/ipc/contract.js';

export interface SaveFileRequest {
  /** A safe file name with its extension, offered in the dialog. */
  readonly suggestedName: string;
  /** Text is written as UTF-8; bytes (an XLSX file) as they are. */
  readonly content: string | Uint8Array;
  /** The dialog's title; "Export as CSV" when not given. */
  readonly title?: string;
  readonly filter: { readonly name: string; readonly extensions: readonly string[] };
}

/**
 * A host that can ask the person where to put a file and write it there.
 * Electron gives one (electron/main/save-dialog.ts); the browser host has none,
 * because its page can download the file itself.
 */
export interface SaveFileHost {
  /** The path written, or null when the person closed the dialog. */
  save(request: SaveFileRequest): Promise<{ readonly path: string } | null>;
}

/** Characters that are not allowed, or not wise, in a file name on any of the three systems. */
const UNSAFE_IN_NAME = /[\\/:*?"<>|\p{Cc}]+/gu;

/** A file name that every OS accepts, ending in the extension, from whatever the renderer suggested. */
export function safeFileName(suggested: string, extension: string): string {
  const suffix = `.${extension}`;
  let base = suggested.normalize('NFC').replace(UNSAFE_IN_NAME, '-').replace(/\s+/g, ' ').trim();
  if (base.toLowerCase().endsWith(suffix)) base = base.slice(0, -suffix.length);
  // Windows refuses names ending in a dot or space, and a leading dot hides the file elsewhere.
  base = base.replace(/^[.\s-]+|[.\s]+$/g, '').slice(0, 100);
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base)) base = `${base}-export`;
  return `${base || 'export'}${suffix}`;
}

/**
 * files.saveCsv: the CSV is always written here, in the main process, so both
 * hosts export the same bytes; the host decides where they go.
 */
export async function saveCsv(input: ParsedInput<'files.saveCsv'>, host: SaveFileHost | undefined): Promise<SaveCsvResult> {
  const fileName = safeFileName(input.suggestedName, 'csv');
  // The BOM makes spreadsheet apps read the file as UTF-8 (names with accents).
  const content = toCsv(input.header, input.rows, { bom: true });
  return deliverFile({ suggestedName: fileName, content, filter: { name: 'CSV (comma-separated values)', extensions: ['csv'] } }, input.rows.length, host);
}

/** A file made in the main process goes where the host puts it: a save dialog, or back to the page as a download. */
export async function deliverFile(request: SaveFileRequest & { readonly content: string }, rows: number, host: SaveFileHost | undefined): Promise<SaveCsvResult> {
  if (!host) return { outcome: 'download', fileName: request.suggestedName, content: request.content, rows };
  const saved = await host.save(request);
  if (!saved) return { outcome: 'canceled' };
  return { outcome: 'saved', fileName: baseName(saved.path), path: saved.path, rows };
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
