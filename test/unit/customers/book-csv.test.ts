import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BOOK_COLUMNS, bookRows, draftsFromRecords } from '../../../shared/customers/book-csv.js';
import { toCsv } from '../../../shared/format/csv.js';
import { CustomerDraft, type Customer } from '../../../shared/ipc/customers.js';

const customer = (over: Partial<Customer>): Customer => ({
  key: 'cu_00000001',
  name: 'Northwind',
  externalIds: ['CUST-1001'],
  accounts: ['morgan-prod'],
  contact: '',
  notes: '',
  updatedAt: '2026-11-26T00:00:00.000Z',
  ...over,
});

function roundTrip(customers: Customer[]) {
  const text = toCsv([...BOOK_COLUMNS], bookRows(customers), { bom: true });
  const records = parse(text, { bom: true, relax_column_count: true }) as string[][];
  const read = draftsFromRecords(records);
  if (!read.ok) throw new Error(read.message);
  return read.rows.map((row) => CustomerDraft.parse(row.draft));
}

describe('the customer book as CSV', () => {
  it('reads back what it wrote: hostile names, formulas, several ids and accounts, multi-line notes', () => {
    const book = [
      customer({ name: '__proto__', externalIds: ['CUST-1001', 'CUST-1002'], accounts: ['morgan-prod', 'morgan-analytics'] }),
      customer({ key: 'cu_00000002', name: 'constructor', externalIds: [], accounts: ['=HYPERLINK("x")'], contact: '+44 20 7946 0000' }),
      customer({ key: 'cu_00000003', name: 'N'.repeat(500), externalIds: ['C-3'], accounts: [], notes: 'line one\r\nline "two", with a comma\n=1+1' }),
      customer({ key: 'cu_00000004', name: '-minus "quoted", name', externalIds: ['C-4'], accounts: [], contact: '@handle' }),
    ];
    const drafts = roundTrip(book);
    expect(drafts.map((d) => [d.name, d.externalIds, d.accounts, d.contact])).toEqual(book.map((c) => [c.name, c.externalIds, c.accounts, c.contact]));
    expect(drafts.map((d) => d.notes)).toEqual(book.map((c) => c.notes));
  });

  it('reads back how each customer pays, as a reader that is not ours splits the file (cust16)', () => {
    const book = [
      customer({ name: '__proto__', paysBy: 'card' }),
      customer({ key: 'cu_00000002', name: 'constructor', paysBy: 'bank' }),
      customer({ key: 'cu_00000003', name: 'Not known Ltd' }),
    ];
    expect(roundTrip(book).map((d) => [d.name, d.paysBy])).toEqual([
      ['__proto__', 'card'],
      ['constructor', 'bank'],
      // An empty cell in a file with the column: "not known", which the import writes over what the book held.
      ['Not known Ltd', ''],
    ]);
  });

  it('finds the columns by name in any order and skips blank lines, counting lines as a spreadsheet shows them', () => {
    const read = draftsFromRecords([
      ['notes', 'LINKED ACCOUNTS', 'name'],
      ['', '', ''],
      ['hello', 'a; b', 'Contoso'],
    ]);
    expect(read).toEqual({ ok: true, rows: [{ line: 3, draft: { name: 'Contoso', externalIds: [], accounts: ['a', 'b'], contact: '', notes: 'hello' } }] });
  });

  it('refuses a file that is not a book, saying what columns it wants', () => {
    const read = draftsFromRecords([['Policy ID', 'Status']]);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toContain('Name');
    expect(draftsFromRecords([])).toEqual({ ok: false, message: 'The file is empty' });
  });
});

describe('what a customer may be', () => {
  it('holds a 500-character name and refuses 501, hidden direction marks and line breaks, with a clear message', () => {
    expect(CustomerDraft.safeParse({ name: 'x'.repeat(500), externalIds: ['C-1'] }).success).toBe(true);
    const messages = (draft: unknown) => (CustomerDraft.safeParse(draft).error?.issues ?? []).map((issue) => issue.message);
    expect(messages({ name: 'x'.repeat(501), externalIds: ['C-1'] })).toEqual(['A customer name is at most 500 characters']);
    expect(messages({ name: 'abc\u202Edef', externalIds: ['C-1'] })[0]).toContain('hidden text-direction');
    expect(messages({ name: 'two\nlines', externalIds: ['C-1'] })[0]).toContain('one line');
    expect(messages({ name: 'Empty', externalIds: [], accounts: [] })).toEqual(['Give the customer at least one external customer id or linked account']);
    expect(messages({ name: '   ', externalIds: ['C-1'] })).toEqual(['Enter the customer’s name']);
  });
});
