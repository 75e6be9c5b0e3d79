import type { CapacityRow } from '../../../shared/api/readers.js';
import type { ComparedRow } from './list-page-reading.js';
import { contentHash, storedBody } from './refresh-diff.js';

/**
 * A refresh over a copy, its list compared page by page as the pages come with the record hashes the copy held
 * when it began: a row that differs (or is new) is held, a row equal to the stored one is kept as its hash only.
 * Holding the whole fetched list (100,000 rows, ~150 MB of the main heap at its peak) made every garbage collection
 * of the refresh copy or mark all of it: the longest pieces of a refresh over the copy (bench/refresh-stall's
 * tracer). The write compares the hashes again with the rows as they are inside its transaction
 * (CapacityReplicaDb.replaceChanges); a row it needs and does not hold (the copy changed meanwhile) makes it give
 * way to an ordinary refresh.
 */
export class ListedAgainstStored {
  readonly #stored: ReadonlyMap<string, string | null>;
  /**
   * Each id listed, by its last copy (the later page's copy is the one kept, as fetchAllPages and oneCopyEach
   * keep it), in the pages' order: the row when it differed from the stored one, else the hash of its record.
   */
  readonly #listed = new Map<string, CapacityRow | string>();
  #held = 0;

  /** `stored`: each stored id's record hash as the copy held it before the fetch (null: written before hashes were kept). */
  constructor(stored: ReadonlyMap<string, string | null>) {
    this.#stored = stored;
  }

  /** A page's rows, in page order. */
  add(rows: readonly CapacityRow[]): void {
    for (const row of rows) {
      const hash = contentHash(storedBody(row));
      this.#keep(row.cidrId, this.#stored.get(row.cidrId) === hash ? hash : row);
    }
  }

  /**
   * A page's rows as the list-page thread compared them with the same stored hashes (list-page-reading.ts): the
   * row comes with them only where it differs. The same outcome as add() given the page's rows.
   */
  addCompared(rows: readonly ComparedRow[]): void {
    for (const [cidrId, hash, row] of rows) this.#keep(cidrId, row ?? hash);
  }

  #keep(cidrId: string, rowOrHash: CapacityRow | string): void {
    const before = this.#listed.get(cidrId);
    if (before !== undefined) {
      // Deleted first so the later copy takes the later place (a Map keeps a key where it was first set).
      this.#listed.delete(cidrId);
      if (typeof before !== 'string') this.#held -= 1;
    }
    this.#listed.set(cidrId, rowOrHash);
    if (typeof rowOrHash !== 'string') this.#held += 1;
  }

  /** Policies listed, each id once. */
  get size(): number {
    return this.#listed.size;
  }

  /** Rows held whole (the ones that differed from the copy as it was when the refresh began). */
  get held(): number {
    return this.#held;
  }

  has(cidrId: string): boolean {
    return this.#listed.has(cidrId);
  }

  /** Each id listed with its row, or its record's hash when the row was not held; oldest first (the pages' order). */
  entries(): IterableIterator<[string, CapacityRow | string]> {
    return this.#listed.entries();
  }

  /** The whole list, newest first as a refresh stores it, when every row is held; else null. */
  rowsNewestFirst(): CapacityRow[] | null {
    if (this.#held !== this.#listed.size) return null;
    return ([...this.#listed.values()] as CapacityRow[]).reverse();
  }
}
