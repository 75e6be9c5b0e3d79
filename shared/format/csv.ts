/**
 * A small RFC 4180 CSV writer for lists exported from the app.
 *
 * Exported files are opened in spreadsheet apps, which run any cell that starts
 * like a formula. A policy name or an account name comes from the service and
 * may be chosen by someone else, so text cells that could start a formula are
 * neutralised (OWASP "CSV injection"): a single quote is put in front, which
 * spreadsheets show as plain text.
 *
 * A file is not always read with the separator it was written with: a
 * spreadsheet whose locale lists with `;` (or a paste, which splits on tabs)
 * cuts a comma file's cells at `;` and tab. So a cell holding any of `,` `;`
 * tab is quoted whatever the separator, and every part of it that one of these
 * could start is neutralised, not only its beginning.
 */

export type CsvCell = string | number | boolean | null | undefined;

export interface CsvOptions {
  /** Field separator; a comma unless a locale needs another. */
  readonly separator?: ',' | ';' | '\t';
  /** Start with a UTF-8 byte-order mark so Excel reads accents correctly. */
  readonly bom?: boolean;
}

/** RFC 4180 ends every record with CRLF. */
const EOL = '\r\n';
const BOM = '\uFEFF';

/**
 * Characters that make a spreadsheet read a cell as a formula or a command
 * (DDE), including their full-width forms, which some apps also accept.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\n', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** A plain number written as text (e.g. "-12.50") cannot run anything and keeps its value. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Where some spreadsheet may cut a cell into cells of its own: every list separator in use, kept by the split. */
const PART_BOUNDARY = /([,;\t])/;

/** Text of one cell: every part that could start a formula neutralised, quoted when it must be. */
export function csvCell(cell: CsvCell, separator: string = ','): string {
  const text = cellText(cell);
  const safe = typeof cell === 'string' ? neutralise(text) : text;
  return needsQuotes(safe, separator) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV document: a header row, then the rows, every record ended by CRLF. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>, options: CsvOptions = {}): string {
  const separator = options.separator ?? ',';
  const line = (cells: readonly CsvCell[]) => cells.map((cell) => csvCell(cell, separator)).join(separator) + EOL;
  let out = options.bom ? BOM : '';
  out += line(header);
  for (const row of rows) out += line(row);
  return out;
}

function cellText(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  return String(cell);
}

function neutralise(text: string): string {
  const whole = startsFormula(text) ? `'${text}` : text;
  // Odd indexes hold the separators themselves; a tab there is a boundary, not a formula start.
  return whole
    .split(PART_BOUNDARY)
    .map((part, i) => (i % 2 === 1 || !startsFormula(part) ? part : `'${part}`))
    .join('');
}

/** Whether a spreadsheet would run this text as a formula (the writer neutralises such cells; the book's import undoes that). */
export function startsFormula(text: string): boolean {
  // Spreadsheets skip leading spaces (and a part's own quotes) before deciding, so look past them too.
  const lead = text.charAt(0);
  const firstVisible = text.replace(/^[\s"]+/, '').charAt(0);
  if (!FORMULA_START.has(lead) && !FORMULA_START.has(firstVisible)) return false;
  return !PLAIN_NUMBER.test(text);
}

function needsQuotes(text: string, separator: string): boolean {
  return (
    text.includes(separator) ||
    PART_BOUNDARY.test(text) ||
    text.includes('"') ||
    text.includes('\n') ||
    text.includes('\r') ||
    // Leading or trailing spaces are kept by quoting; some readers trim bare ones.
    text !== text.trim()
  );
}
