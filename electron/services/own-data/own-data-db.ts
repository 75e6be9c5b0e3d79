import { openConnection, openKeyed, type Connection } from '../platform/sqlcipher.js';

/** Names the layout of the tables; a file that says otherwise was written by another version. */
export const OWN_DATA_FORMAT = 'capacity-desk-own-data/1';

/** Small: the own data is the person's writing (records and the activity record), not a copy of the service. */
const CACHE_KIB = 8 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
-- What this app did to each policy: only ever appended to.
CREATE TABLE IF NOT EXISTS activity (seq INTEGER PRIMARY KEY, policy_kind TEXT NOT NULL, cidr_id TEXT NOT NULL, body TEXT NOT NULL) STRICT;
CREATE INDEX IF NOT EXISTS activity_policy ON activity (policy_kind, cidr_id, seq);
-- Every other kind the person keeps (customer book, worklist states, quotes): one row per record.
CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (kind, id)) STRICT;
`;

/** One stored record, its body as JSON text. */
export interface StoredRecord {
  readonly id: string;
  readonly body: string;
  readonly updatedAt: string;
}

/** Thrown when an own-data file opened with its key was written by another version of the app. */
export class OwnDataFormatError extends Error {
  constructor(found: string) {
    super(`own data written in format ${found}, this version reads ${OWN_DATA_FORMAT}`);
    this.name = 'OwnDataFormatError';
  }
}

/**
 * The account manager's own data of one owner in an encrypted SQLite database
 * (SQLCipher format), one connection. Rollback journaling with full sync: every
 * commit is all-or-nothing across a crash and sits in the one file once
 * committed, so a plain copy of the file between writes is a whole database
 * (own-data-files.ts keeps such a copy as the last good state).
 */
export class OwnDataDb {
  readonly #db: Connection;

  private constructor(db: Connection) {
    this.#db = db;
  }

  /**
   * Opens (or creates) the file and reads every page of it (SQLCipher
   * authenticates each one): a wrong key, a damaged page or a file of another
   * version throws here, not at some later read.
   */
  static open(file: string, key: Buffer): OwnDataDb {
    const db = openKeyed(file, key, CACHE_KIB);
    try {
      db.pragma('journal_mode = DELETE');
      db.pragma('synchronous = FULL');
      checkEveryPage(db);
      prepareSchema(db);
      return new OwnDataDb(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Without a key that outlives this run nothing may reach the disk: the same tables, in memory. */
  static inMemory(): OwnDataDb {
    const db = openConnection(':memory:');
    prepareSchema(db);
    return new OwnDataDb(db);
  }

  /** Reads every page of a file (the copy about to become the last good state) and throws if one fails. */
  static check(file: string, key: Buffer): void {
    const db = openKeyed(file, key, CACHE_KIB);
    try {
      checkEveryPage(db);
      const found = formatOf(db);
      if (found !== OWN_DATA_FORMAT) throw new OwnDataFormatError(found ?? 'none');
    } finally {
      db.close();
    }
  }

  meta(key: string): string | null {
    return (this.#db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? null;
  }

  setMeta(key: string, value: string): void {
    this.#db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Runs `work` as one commit. */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work)();
  }

  appendActivity(policyKind: string, cidrId: string, body: string): void {
    this.#db.prepare('INSERT INTO activity (policy_kind, cidr_id, body) VALUES (?, ?, ?)').run(policyKind, cidrId, body);
  }

  /** A policy's activity record, newest first (in the order written). */
  activity(policyKind: string, cidrId: string): string[] {
    return this.#db.prepare('SELECT body FROM activity WHERE policy_kind = ? AND cidr_id = ? ORDER BY seq DESC').pluck().all(policyKind, cidrId) as string[];
  }

  /** The activity records of many policies of one kind in one read (a customer's), newest first. */
  activityOfPolicies(policyKind: string, cidrIds: readonly string[]): string[] {
    return this.#db
      .prepare('SELECT body FROM activity WHERE policy_kind = ? AND cidr_id IN (SELECT value FROM json_each(?)) ORDER BY seq DESC')
      .pluck()
      .all(policyKind, JSON.stringify(cidrIds)) as string[];
  }

  /** Every entry of one action on one kind of policy (all cancels, say), newest first. */
  activityOfAction(policyKind: string, action: string): string[] {
    return this.#db
      .prepare(`SELECT body FROM activity WHERE policy_kind = ? AND json_extract(body, '$.action') = ? ORDER BY seq DESC`)
      .pluck()
      .all(policyKind, action) as string[];
  }

  putRecord(kind: string, record: StoredRecord): void {
    this.#db
      .prepare('INSERT INTO records (kind, id, body, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at')
      .run(kind, record.id, record.body, record.updatedAt);
  }

  record(kind: string, id: string): StoredRecord | null {
    return (this.#db.prepare('SELECT id, body, updated_at AS updatedAt FROM records WHERE kind = ? AND id = ?').get(kind, id) as StoredRecord | undefined) ?? null;
  }

  records(kind: string): StoredRecord[] {
    return this.#db.prepare('SELECT id, body, updated_at AS updatedAt FROM records WHERE kind = ? ORDER BY id').all(kind) as StoredRecord[];
  }

  deleteRecord(kind: string, id: string): boolean {
    return this.#db.prepare('DELETE FROM records WHERE kind = ? AND id = ?').run(kind, id).changes > 0;
  }

  close(): void {
    this.#db.close();
  }
}

/** Reads every page; SQLCipher throws on one failing authentication, SQLite reports structural damage as rows. */
function checkEveryPage(db: Connection): void {
  const findings = db.pragma('quick_check', { simple: false }) as Array<{ quick_check: string }>;
  if (findings.length !== 1 || findings[0]?.quick_check !== 'ok') {
    throw Object.assign(new Error(`own data failed its check: ${findings.map((f) => f.quick_check).join('; ').slice(0, 200)}`), { code: 'SQLITE_CORRUPT' });
  }
}

function formatOf(db: Connection): string | undefined {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get() !== undefined;
  return hasMeta ? (db.prepare(`SELECT value FROM meta WHERE key = 'format'`).pluck().get() as string | undefined) : undefined;
}

function prepareSchema(db: Connection): void {
  const found = formatOf(db);
  if (found !== undefined && found !== OWN_DATA_FORMAT) throw new OwnDataFormatError(found);
  db.exec(SCHEMA);
  if (found === undefined) db.prepare(`INSERT INTO meta (key, value) VALUES ('format', ?) ON CONFLICT (key) DO NOTHING`).run(OWN_DATA_FORMAT);
}
