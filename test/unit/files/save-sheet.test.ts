import readXlsxFile from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveSheet, sheetCsv } from '../../../electron/services/files/save-sheet.js';
import { SaveSheetInput, type SheetColumn } from '../../../shared/ipc/export-sheet.js';

const columns: SheetColumn[] = [
  { label: 'Policy ID', kind: 'text' },
  { label: 'Quantity', kind: 'integer' },
  { label: 'Launch', kind: 'datetime' },
  { label: 'Our price', kind: 'amount' },
  { label: 'Savings %', kind: 'percent' },
];
const rows = [
  ['sc_1', 4, '2026-11-30T23:30', 1234.5, 0.2738],
  ['=HYPERLINK("x")', null, null, null, null],
];

describe('the typed export (files.saveSheet)', () => {
  // exceljs loads with the first workbook (not with the app): its loading is not what these tests time.
  beforeAll(async () => {
    await import('exceljs');
  }, 60_000);

  it('writes an XLSX that another reader reads back typed: dates as dates, numbers as numbers, a header row', async () => {
    const input = SaveSheetInput.parse({ suggestedName: 'Capacity policies 2026-11-26', format: 'xlsx', columns, rows });
    const result = await saveSheet(input, undefined);
    if (result.outcome !== 'download') throw new Error('expected a download');
    expect(result.fileName).toBe('Capacity policies 2026-11-26.xlsx');
    expect(result.rows).toBe(2);
    const sheets = await readXlsxFile(Buffer.from(result.base64, 'base64'));
    const read = (sheets[0] as { data: unknown[][] }).data;
    expect(read[0]).toEqual(['Policy ID', 'Quantity', 'Launch', 'Our price', 'Savings %']);
    const [id, qty, launch, price, savings] = read[1] as [string, number, Date, number, number];
    expect(id).toBe('sc_1');
    expect(qty).toBe(4);
    // The wall clock the screen showed, whatever the zone of the computer reading the test.
    expect(launch).toBeInstanceOf(Date);
    expect(launch.toISOString()).toBe('2026-11-30T23:30:00.000Z');
    expect(price).toBe(1234.5);
    expect(savings).toBeCloseTo(0.2738);
    // Text that looks like a formula stays text (a shared string, never a formula).
    expect((read[2] as unknown[])[0]).toBe('=HYPERLINK("x")');
  });

  it('keeps the header frozen and formats each typed column', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const input = SaveSheetInput.parse({ suggestedName: 'x', format: 'xlsx', columns, rows });
    const result = await saveSheet(input, undefined);
    if (result.outcome !== 'download') throw new Error('expected a download');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(result.base64, 'base64') as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getCell('C2').numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getCell('E2').numFmt).toBe('0.0%');
  });

  it('writes a CSV spreadsheet apps read as dates, percentages and amounts', () => {
    const text = sheetCsv(columns, rows);
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Policy ID,Quantity,Launch,Our price,Savings %');
    expect(lines[1]).toBe('sc_1,4,2026-11-30 23:30,1234.50,27.38%');
    // The cell escaping of the CSV writer still neutralises formulas.
    expect(lines[2]?.startsWith(`"'=HYPERLINK`)).toBe(true);
  });

  it('refuses an unknown format or kind with a clear message', () => {
    expect(SaveSheetInput.safeParse({ suggestedName: 'x', format: 'ods', columns, rows }).success).toBe(false);
    expect(SaveSheetInput.safeParse({ suggestedName: 'x', format: 'csv', columns: [{ label: 'x', kind: 'money' }], rows: [] }).success).toBe(false);
  });
});
