import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { BookIndex, conflictOf, withoutRepeats } from '../../../shared/customers/book-rules.js';
import { draftsFromRecords } from '../../../shared/customers/book-csv.js';
import { nameKey } from '../../../shared/customers/matching.js';
import {
  Customer,
  CustomerDraft,
  type CustomerBook as Book,
  type CustomerImportReport,
  type ParsedCustomerDraft,
} from '../../../shared/ipc/customers.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { OwnDataService } from '../own-data/own-data-service.js';
import type { OwnRecords } from '../own-data/own-data-store.js';

export interface CustomerBookDeps {
  /** The own data of the signed-in (or offline-reviewed) user: the book is its `customer` records. */
  readonly ownData: Pick<OwnDataService, 'records' | 'status'>;
  readonly now?: () => Date;
}

type BookRecords = OwnRecords<Customer>;

/**
 * The account manager's customers: kept, checked and imported here, stored as
 * own data (never in the disposable copy). A name, an external id and an
 * account each belong to one customer (shared/customers/book-rules.ts).
 */
export class CustomerBookService {
  readonly #deps: CustomerBookDeps;
  /** Bumped by each change this service makes: what was derived from the book before is stale. */
  #version = 0;

  get version(): number {
    return this.#version;
  }

  /**
   * The book as last read, with the own data's version it was read at (`OwnRecords.version`: it moves with every
   * write asked and every restore, and differs between owners). Read again only when that moved: the customer
   * filter's "no customer" asks for proposals at each choice, the customers' standings and the palette's DR look-up
   * ask for the book, and each read parsed and checked every record (2,000 customers: 50-100 ms of one turn at load
   * 33, while a refresh's pages were read; issue 25, stall14).
   */
  #read: { readonly version: string; readonly customers: readonly Customer[] } | null = null;

  constructor(deps: CustomerBookDeps) {
    this.#deps = deps;
  }

  async book(): Promise<Book> {
    const records = await this.#records();
    const [customers, status] = await Promise.all([this.#readKept(records), this.#deps.ownData.status()]);
    return {
      customers: [...customers],
      persistent: status?.persistent ?? false,
      ...(status?.reason ? { reason: status.reason } : {}),
      recovered: status?.recovered ?? null,
    };
  }

  /**
   * Every customer (empty when nobody's book is open): for views that only look customers up. The same array
   * (frozen) while the own data stays as it was, so what is derived from it can be kept by its identity.
   */
  async customers(): Promise<readonly Customer[]> {
    const records = await this.#records().catch((error: unknown) => {
      if (error instanceof AppFailure && error.error.kind === 'unauthorized') return null;
      throw error;
    });
    return records ? this.#readKept(records) : [];
  }

  /** The book, from #read while the own data's version is the one it was read at. */
  async #readKept(records: BookRecords): Promise<readonly Customer[]> {
    // Taken just before the list is asked: the version of the state that list reads (a write asked after moves it).
    const version = records.version();
    if (this.#read?.version === version) return this.#read.customers;
    const customers = Object.freeze(await readAll(records));
    this.#read = { version, customers };
    return customers;
  }

  async save(input: ParsedCustomerDraft): Promise<Customer> {
    const records = await this.#records();
    const book = await readAll(records);
    const given = withoutRepeats(input);
    const previous = given.key ? book.find((customer) => customer.key === given.key) : undefined;
    if (given.key && !previous) {
      throw new AppFailure({ kind: 'not-found', message: 'That customer is no longer in the book (removed in another window?).' });
    }
    // A draft that says nothing of how they pay (not from the form) keeps what the book holds.
    const draft = given.paysBy === undefined && previous?.paysBy ? { ...given, paysBy: previous.paysBy } : given;
    const conflict = conflictOf(draft, book);
    if (conflict) throw new AppFailure({ kind: 'invalid-input', field: conflict.field, message: conflict.message });
    const customer = this.#stamped(draft);
    this.#version += 1;
    await records.put(customer.key, customer);
    return customer;
  }

  async remove(key: string): Promise<Book> {
    const records = await this.#records();
    this.#version += 1;
    await records.delete(key);
    return this.book();
  }

  /**
   * Adds or updates customers from a CSV book: a row whose name is in the book
   * updates that customer (its ids, accounts, contact and notes become the
   * row's), any other row adds one. A row that breaks a rule is left out and
   * said with its line; the others are kept.
   */
  async import(csv: string): Promise<CustomerImportReport> {
    const records = await this.#records();
    let parsed: string[][];
    try {
      parsed = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
    } catch (error) {
      const line = (error as { lines?: number }).lines;
      throw new AppFailure({ kind: 'invalid-input', field: 'csv', message: `The file is not a CSV file${line ? ` (line ${line})` : ''}: nothing was imported.` });
    }
    const read = draftsFromRecords(parsed);
    if (!read.ok) throw new AppFailure({ kind: 'invalid-input', field: 'csv', message: `${read.message}: nothing was imported.` });
    // Each row looked up, not checked against every customer: n squared at 2,000 rows.
    const book = new BookIndex(await readAll(records));
    const report: Omit<CustomerImportReport, 'book'> = { added: 0, updated: 0, unchanged: 0, rejected: [] };
    const firstLineOf = new Map<string, number>();
    const kept: Customer[] = [];
    for (const { line, draft: raw } of read.rows) {
      const name = typeof raw.name === 'string' ? raw.name.slice(0, 120) : '';
      const checked = CustomerDraft.safeParse(raw);
      if (!checked.success) {
        report.rejected.push({ line, name, reason: checked.error.issues[0]?.message ?? 'Not a customer' });
        continue;
      }
      const seenAt = firstLineOf.get(nameKey(checked.data.name));
      if (seenAt !== undefined) {
        report.rejected.push({ line, name, reason: `The name is on line ${seenAt} already` });
        continue;
      }
      firstLineOf.set(nameKey(checked.data.name), line);
      const existing = book.named(checked.data.name);
      const draft = withoutRepeats({
        ...checked.data,
        ...(existing ? { key: existing.key, name: existing.name } : {}),
        // A book exported before "Pays by" leaves what this book holds of it as it is.
        ...(checked.data.paysBy === undefined && existing?.paysBy ? { paysBy: existing.paysBy } : {}),
      });
      const conflict = book.conflictOf(draft);
      if (conflict) {
        report.rejected.push({ line, name, reason: conflict.message });
        continue;
      }
      if (existing && sameContent(existing, draft)) {
        report.unchanged += 1;
        continue;
      }
      const customer = this.#stamped(draft);
      kept.push(customer);
      if (existing) {
        book.replace(existing, customer);
        report.updated += 1;
      } else {
        book.add(customer);
        report.added += 1;
      }
    }
    // One commit for the whole file: a write a row, each followed by a copy of the growing file as its last good state, was n squared.
    if (kept.length > 0) this.#version += 1;
    await records.putMany(kept.map((customer) => [customer.key, customer]));
    return { ...report, book: await this.book() };
  }

  /** The signed-in (or offline-reviewed) user's book; fails with a plain message when there is nobody. */
  #records(): Promise<BookRecords> {
    return this.#deps.ownData.records('customer', Customer);
  }

  #stamped(draft: ParsedCustomerDraft): Customer {
    return {
      key: draft.key ?? newCustomerKey(),
      name: draft.name,
      externalIds: draft.externalIds,
      accounts: draft.accounts,
      contact: draft.contact,
      notes: draft.notes,
      ...(draft.paysBy ? { paysBy: draft.paysBy } : {}),
      updatedAt: (this.#deps.now?.() ?? new Date()).toISOString(),
    };
  }
}

/** A fresh key: random, so two computers' books merge by name, never by a key that collides. */
export function newCustomerKey(): string {
  return `cu_${randomBytes(10).toString('hex')}`;
}

function sameContent(customer: Customer, draft: ParsedCustomerDraft): boolean {
  return (
    customer.contact === draft.contact &&
    customer.notes === draft.notes &&
    (customer.paysBy ?? '') === (draft.paysBy ?? '') &&
    JSON.stringify(customer.externalIds) === JSON.stringify(draft.externalIds) &&
    JSON.stringify(customer.accounts) === JSON.stringify(draft.accounts)
  );
}

/** The stored customers (the store skips, keeps and logs a record that does not read as one). */
async function readAll(records: BookRecords): Promise<Customer[]> {
  return (await records.list()).filter((record) => record.body.key === record.id).map((record) => record.body);
}
