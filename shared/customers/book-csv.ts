import { startsFormula } from '../format/csv.js';
import { PAYS_BY, type Customer, type CustomerDraft, type PaysBy } from '../ipc/customers.js';

/** The columns of an exported book, in order; an import finds them by these names, in any order. */
export const BOOK_COLUMNS = ['Name', 'External customer ids', 'Linked accounts', 'Contact', 'Notes', 'Pays by'] as const;

/** "Pays by" as the exported book writes it; an import reads these, the codes, and any case. */
const PAYS_BY_WORDS: Readonly<Record<PaysBy, string>> = { card: 'Card', bank: 'Bank transfer' };

/** A "Pays by" cell: '' when empty, the code when it names one, else the text itself (the draft's check refuses it). */
function paysByOf(cell: string): string {
  const text = cell.trim().toLowerCase();
  if (text === '') return '';
  for (const code of PAYS_BY) if (text === code || text === PAYS_BY_WORDS[code].toLowerCase()) return code;
  return cell.trim();
}

/** Several ids or accounts in one cell: one per line, which spreadsheets show as such and no id or account holds. */
const LIST_SEPARATOR = '\n';

export function bookRows(customers: readonly Customer[]): string[][] {
  return customers.map((customer) => [
    customer.name,
    customer.externalIds.join(LIST_SEPARATOR),
    customer.accounts.join(LIST_SEPARATOR),
    customer.contact,
    customer.notes,
    customer.paysBy ? PAYS_BY_WORDS[customer.paysBy] : '',
  ]);
}

/**
 * A cell as the person wrote it: the exporter puts a quote before text a
 * spreadsheet would run as a formula (shared/format/csv.ts), and takes it off here.
 */
function cellText(cell: string | undefined): string {
  const text = cell ?? '';
  return text.startsWith("'") && startsFormula(text.slice(1)) ? text.slice(1) : text;
}

function listOf(cell: string | undefined): string[] {
  return cellText(cell)
    .split(/\r?\n|;/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export type BookRecords =
  | { readonly ok: true; readonly rows: ReadonlyArray<{ readonly line: number; readonly draft: CustomerDraft }> }
  | { readonly ok: false; readonly message: string };

/**
 * The drafts of a CSV book already split into records (header first). Columns
 * are found by name (case aside), so a file re-ordered in a spreadsheet still
 * reads; a file without a Name column is not a book.
 */
export function draftsFromRecords(records: readonly (readonly string[])[]): BookRecords {
  const [header, ...rest] = records;
  if (!header) return { ok: false, message: 'The file is empty' };
  const at = new Map(header.map((title, index) => [title.replace(/^\uFEFF/, '').trim().toLowerCase(), index]));
  const column = (title: (typeof BOOK_COLUMNS)[number]) => at.get(title.toLowerCase());
  const nameAt = column('Name');
  if (nameAt === undefined) return { ok: false, message: `The file has no “Name” column; its columns should be: ${BOOK_COLUMNS.join(', ')}` };
  const cell = (record: readonly string[], index: number | undefined) => (index === undefined ? undefined : record[index]);
  const rows = rest
    .map((record, index) => ({ record, line: index + 2 }))
    .filter(({ record }) => record.some((value) => value.trim() !== ''))
    .map(({ record, line }) => ({
      line,
      draft: {
        name: cellText(cell(record, nameAt)),
        externalIds: listOf(cell(record, column('External customer ids'))),
        accounts: listOf(cell(record, column('Linked accounts'))),
        contact: cellText(cell(record, column('Contact'))),
        notes: cellText(cell(record, column('Notes'))),
        // A file without the column (exported before it) says nothing of it: the book keeps what it holds.
        ...(column('Pays by') === undefined ? {} : { paysBy: paysByOf(cellText(cell(record, column('Pays by')))) as CustomerDraft['paysBy'] }),
      },
    }));
  return { ok: true, rows };
}
