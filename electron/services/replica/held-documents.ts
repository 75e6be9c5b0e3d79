import type { StoredDocument } from './capacity-replica-db.js';

/** One statement and its parameters. */
export type SqlStatement = readonly [string, ReadonlyArray<string | number | null>];

/** One kind's records written while held: the whole kind (replaced) or some of its records over the stored ones. */
interface HeldKind {
  readonly whole: boolean;
  readonly records: Map<string, StoredDocument>;
}

/**
 * Records written while a streamed first sync's rewrite thread holds the file's write lock (a detail kept after a
 * purchase, a DR list), kept here until the thread ends: the main connection cannot write then (it would wait for
 * the lock and fail), and written into the thread's transaction they were unreadable on the read connection and
 * lost with its rollback (a cancel, a failed page, a close). Reads are answered from here over the file, and the
 * statements are written on the main connection, in the order made, once the thread has committed or rolled back.
 * A kill before then loses them, as it loses the sync: each is a copy of a service answer, read again when wanted.
 */
export class HeldDocuments {
  readonly #statements: SqlStatement[] = [];
  readonly #kinds = new Map<string, HeldKind>();
  readonly #meta = new Map<string, string>();

  /** The statements to write once the thread has ended, in the order they were made. */
  get statements(): readonly SqlStatement[] {
    return this.#statements;
  }

  replace(kind: string, documents: readonly StoredDocument[], fetchedAt: string, statements: readonly SqlStatement[]): void {
    this.#kinds.set(kind, { whole: true, records: new Map(documents.map((doc) => [doc.id, doc])) });
    this.#meta.set(`${kind}.fetchedAt`, fetchedAt);
    this.#statements.push(...statements);
  }

  /** `storedAge`: the kind's age in the file; the kind's age is that of its first record until it is written whole. */
  put(kind: string, document: StoredDocument, storedAge: string | null, statements: readonly SqlStatement[]): void {
    const held = this.#kinds.get(kind) ?? { whole: false, records: new Map<string, StoredDocument>() };
    held.records.set(document.id, document);
    this.#kinds.set(kind, held);
    const ageKey = `${kind}.fetchedAt`;
    if (!this.#meta.has(ageKey) && storedAge === null) this.#meta.set(ageKey, document.fetchedAt);
    this.#statements.push(...statements);
  }

  /** A meta value written while held, or undefined: the file's then stands. */
  meta(key: string): string | undefined {
    return this.#meta.get(key);
  }

  document(kind: string, id: string, stored: () => StoredDocument | null): StoredDocument | null {
    const held = this.#kinds.get(kind);
    const record = held?.records.get(id);
    if (record) return record;
    return held?.whole ? null : stored();
  }

  /** Every record of a kind, by id as SQLite orders text (its bytes). */
  documents(kind: string, stored: () => StoredDocument[]): StoredDocument[] {
    const held = this.#kinds.get(kind);
    if (!held) return stored();
    const kept = held.whole ? [] : stored().filter((doc) => !held.records.has(doc.id));
    return [...kept, ...held.records.values()].sort((a, b) => Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)));
  }
}
