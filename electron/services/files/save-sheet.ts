import { toCsv, type CsvCell } from '../../../shared/format/csv.js';
import type { ParsedInput } from '../../../shared/ipc/contract.js';
import type { SaveSheetResult, SheetColumn, SheetKind } from '../../../shared/ipc/export-sheet.js';
import { safeFileName, type SaveFileHost } from './save-file.js';

type Cell = string | number | boolean | null;

/** How each kind shows in Excel (number formats are locale-neutral codes; Excel shows them in the reader's locale). */
const XLSX_FORMATS: Readonly<Record<SheetKind, string | undefined>> = {
  text: undefined,
  integer: '0',
  amount: '#,##0.00',
  percent: '0.0%',
  datetime: 'yyyy-mm-dd hh:mm',
};

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * files.saveSheet: a list as shown, written here in the main process (both
 * hosts export the same bytes), as CSV or as XLSX, typed by column: dates as
 * dates, percentages as percentages, amounts as numbers.
 */
export async function saveSheet(input: ParsedInput<'files.saveSheet'>, host: SaveFileHost | undefined): Promise<SaveSheetResult> {
  const fileName = safeFileName(input.suggestedName, input.format);
  const rows = input.rows.length;
  const content = input.format === 'xlsx' ? await toXlsx(input.columns, input.rows) : sheetCsv(input.columns, input.rows);
  if (!host) {
    const base64 = Buffer.from(content).toString('base64');
    return { outcome: 'download', fileName, base64, mimeType: input.format === 'xlsx' ? XLSX_MIME : 'text/csv;charset=utf-8', rows };
  }
  const filter = input.format === 'xlsx' ? { name: 'Excel workbook', extensions: ['xlsx'] } : { name: 'CSV (comma-separated values)', extensions: ['csv'] };
  const saved = await host.save({ suggestedName: fileName, content, filter, title: input.format === 'xlsx' ? 'Export as Excel workbook' : 'Export as CSV' });
  if (!saved) return { outcome: 'canceled' };
  return { outcome: 'saved', fileName: saved.path.split(/[\\/]/).pop() ?? saved.path, path: saved.path, rows };
}

/**
 * CSV as spreadsheet apps read it: "2026-11-30 14:05" (a date in every locale's
 * Excel), "28.5%" (read as a percentage), amounts with two decimals.
 */
export function sheetCsv(columns: readonly SheetColumn[], rows: ReadonlyArray<readonly Cell[]>): string {
  const text = rows.map((row) => columns.map((column, i) => csvValue(column.kind, row[i] ?? null)));
  // The BOM makes spreadsheet apps read the file as UTF-8 (names with accents).
  return toCsv(
    columns.map((column) => column.label),
    text,
    { bom: true },
  );
}

function csvValue(kind: SheetKind, cell: Cell): CsvCell {
  if (cell === null) return null;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return null;
    if (kind === 'percent') return `${Number((cell * 100).toFixed(2))}%`;
    if (kind === 'amount') return cell.toFixed(2);
    return cell;
  }
  if (kind === 'datetime' && typeof cell === 'string' && WALL_CLOCK.test(cell)) return cell.replace('T', ' ');
  return cell;
}

/** An XLSX workbook: one sheet, a bold header row frozen above the rows, each column typed and formatted. */
export async function toXlsx(columns: readonly SheetColumn[], rows: ReadonlyArray<readonly Cell[]>): Promise<Uint8Array> {
  // Loaded with the first workbook, not with the app: at start its module took ~1.1 s of a launch (issue 25).
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Capacity Desk';
  const sheet = book.addWorksheet('Export', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => {
    const numFmt = XLSX_FORMATS[column.kind];
    return {
      header: column.label,
      width: Math.min(60, Math.max(10, column.label.length + 2, column.kind === 'datetime' ? 17 : 0)),
      ...(numFmt ? { style: { numFmt } } : {}),
    };
  });
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((column, i) => xlsxValue(column.kind, row[i] ?? null)));
  const buffer = await book.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}

function xlsxValue(kind: SheetKind, cell: Cell): Date | number | string | boolean | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (kind === 'datetime' && typeof cell === 'string') {
    const parts = WALL_CLOCK.exec(cell);
    // Excel has no time zones: the wall clock goes in as it reads, so exceljs is given it as UTC.
    if (parts) return new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]), Number(parts[4]), Number(parts[5])));
  }
  return cell;
}
