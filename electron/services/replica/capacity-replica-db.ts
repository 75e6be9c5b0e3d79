import type Database from 'better-sqlite3-multiple-ciphers';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { SliceTurn } from './requests-first.js';
import { statSync } from 'node:fs';
import { MOVE_LIST_AND_COMMIT_VERSIONS, commitKeepingVersion, commitMovingListVersion, commitMovingVersion } from './commit-version.js';
import { z } from 'zod';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { SkippedItem } from '../../../shared/api/tolerant.js';
import { openConnection, openKeyed, type Connection } from '../platform/sqlcipher.js';
import { WalCheckpointer, type CheckpointOutcome } from './wal-checkpointer.js';
import type { IndexToBuild } from './kept-indexes.js';
import { inSlices } from './time-slices.js';
import { contentHash, diffWithStored, oneCopyEach, rewriteIsCheaper, storedBody, withWrittenThrough, type StoredRow } from './refresh-diff.js';
import type { ListedAgainstStored } from './listed-against-stored.js';
import {
  PAUSE_STATUS_COUNTS,
  RECOUNT_STATUS_COUNTS,
  keepOverviewIndexes,
  keepSavings,
  keepStatusCounts,
  keptStatusCounts,
  pauseStatusCounts,
  recountStatusCounts,
  type SavingsToKeep,
} from '../overview/replica-overview.js';
import { RewriteFailure, RewriteThread, type RewriteRow, type RewriteSql } from './rewrite-thread.js';
import { FirstSyncStream } from './first-sync-stream.js';
import { HeldDocuments, type SqlStatement } from './held-documents.js';
import { ACCOUNT_INDEX, accountCondition } from '../customers/replica-accounts.js';
import { UPCOMING_HEAD_INDEX, keepUpcomingIndexes } from '../worklist/replica-upcoming.js';
import { bankFee, cardFee } from '../customers/customer-summary.js';
import { accountKey } from '../../../shared/customers/matching.js';

const LeftOut = z.array(SkippedItem);
import type { ParsedLocalCapacityQuery, RecordSortColumn } from '../../../shared/ipc/offline.js';

/** Old rows deleted, or rows added to the full-text index, per statement within a slice. */
const SLICE_ROWS = 100;
/**
 * Decrypted pages kept in memory (KiB): the slim table and its indexes of
 * 100,000 policies fit, so a search decrypts nothing after the first one.
 */
const PAGE_CACHE_KIB = 96 * 1024;
/**
 * The writer's page cache (KiB). Small on purpose: once it is full, SQLite
 * spills dirty pages to the write-ahead log during the transaction
 * (cache_spill), so a full refresh's COMMIT has few pages left to encrypt.
 * Measured at 100,000 the COMMIT still takes ~130-150 ms of CPU with 1 or
 * 4 MB: SQLite re-reads the log from the first frame the transaction
 * rewrote to sum it again; 4 MB re-reads fewer pages while writing.
 */
const WRITER_CACHE_KIB = 4 * 1024;
/** The rewrite thread's page cache (KiB): its COMMIT stalls no one, so it may keep more pages than the main writer. */
const THREAD_CACHE_KIB = 16 * 1024;
/**
 * From this many rows a whole rewrite on a file is the rewrite thread's. Below it the main thread's rewrite
 * (slices of SLICE_MS) ends sooner than the thread starts, opens the file and is handed the rows; measured in
 * docs/local-first.md ("A small list rewritten on the main thread").
 */
export const REWRITE_THREAD_FROM_ROWS = 1_500;
/** Rows prepared on the main thread per message to the rewrite thread. */
const THREAD_CHUNK_ROWS = 250;
/** A log this large is checkpointed after a small write too: about SQLite's default of 1,000 pages. */
export const LOG_CHECKPOINT_BYTES = 4 * 1024 * 1024;
/** Rows read between yields by the background check of every page (whole records: keep each slice short). */
const VERIFY_BATCH = 500;
/** Slim rows read per statement while they load in the background; a slice of SLICE_MS reads several. */
const SLIM_BATCH = 250;
/** Names the layout of the tables; a file that says otherwise was written by another version. */
export const REPLICA_FORMAT = 'capacity-desk-replica/1';

/** Sort columns as SQL; every one ends with the row id so paging is stable among equal keys. */
const ORDER_BY: Readonly<Record<RecordSortColumn, string>> = {
  createdDate: 'created_date',
  cidrId: 'cidr_id',
  policyName: 'policy_name',
  policyStatus: 'policy_status',
  instanceType: 'instance_type',
  qty: 'qty',
  platform: 'platform',
  availabilityZone: 'zone',
  launch: 'launch_ms',
  end: 'end_ms',
  autoRenewal: 'auto_renewal',
  ourPrice: 'our_price',
  savings: 'savings',
  savingsPercentage: 'savings_pct',
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
-- Everything but the capacity list (details, linked accounts, DR lists and details): one row per record.
CREATE TABLE IF NOT EXISTS documents (kind TEXT NOT NULL, id TEXT NOT NULL, fetched_at TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, id)) STRICT;
CREATE TABLE IF NOT EXISTS capacities (
  rid INTEGER PRIMARY KEY,
  cidr_id TEXT NOT NULL UNIQUE,
  created_date TEXT NOT NULL,
  policy_name TEXT NOT NULL COLLATE NOCASE,
  policy_status TEXT NOT NULL,
  instance_type TEXT NOT NULL,
  qty INTEGER NOT NULL,
  platform TEXT NOT NULL,
  zone TEXT NOT NULL,
  launch_at TEXT NOT NULL,
  end_at TEXT NOT NULL,
  launch_ms INTEGER,
  end_ms INTEGER,
  auto_renewal INTEGER NOT NULL,
  our_price REAL,
  savings REAL,
  savings_pct REAL,
  search TEXT NOT NULL
) STRICT;
-- The whole record, apart: searches and sorts scan the slim table above and read bodies only for the rows shown.
CREATE TABLE IF NOT EXISTS capacity_bodies (rid INTEGER PRIMARY KEY REFERENCES capacities (rid) ON DELETE CASCADE, body TEXT NOT NULL) STRICT;
CREATE INDEX IF NOT EXISTS capacities_status_created ON capacities (policy_status, created_date);
CREATE INDEX IF NOT EXISTS capacities_created ON capacities (created_date);
-- The renewal worklist's launch and end indexes hold the account column: made after it (keepUpcomingIndexes).
CREATE VIRTUAL TABLE IF NOT EXISTS capacities_text USING fts5 (search, content = 'capacities', content_rowid = 'rid', tokenize = 'trigram');
CREATE TRIGGER IF NOT EXISTS capacities_text_update AFTER UPDATE ON capacities BEGIN
  INSERT INTO capacities_text (capacities_text, rowid, search) VALUES ('delete', old.rid, old.search);
  INSERT INTO capacities_text (rowid, search) VALUES (new.rid, new.search);
END;
`;

/**
 * The full-text index follows each row written (write-throughs, and the rows a
 * refresh over the copy found changed). A refresh that rewrites the whole list
 * drops these two inside its transaction, clears the index at once and fills it
 * from the new rows in slices (measured at 100,000: the triggers cost ~11 s of
 * CPU, the fill ~1 s), then creates them again before its COMMIT; readers see
 * neither change (another connection), and a rollback brings them back.
 */
const ROW_TEXT_TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS capacities_text_insert AFTER INSERT ON capacities BEGIN
  INSERT INTO capacities_text (rowid, search) VALUES (new.rid, new.search);
END;
CREATE TRIGGER IF NOT EXISTS capacities_text_delete AFTER DELETE ON capacities BEGIN
  INSERT INTO capacities_text (capacities_text, rowid, search) VALUES ('delete', old.rid, old.search);
END;
`;

/**
 * A policy's slim row and record hash, written or replaced by its id (write-throughs, changed rows, the rewrite
 * thread). `rid` null: SQLite picks the next row id (a streamed first sync names each row's, first-sync-stream.ts).
 */
const UPSERT_ROW = `
  INSERT INTO capacities (rid, cidr_id, created_date, policy_name, policy_status, instance_type, qty, platform, zone,
    launch_at, end_at, launch_ms, end_ms, auto_renewal, our_price, savings, savings_pct, search, account, fee, fee_written, bank_fee, bank_fee_written, body_hash)
  VALUES (@rid, @cidrId, @createdDate, @policyName, @policyStatus, @instanceType, @qty, @platform, @zone,
    @launchAt, @endAt, @launchMs, @endMs, @autoRenewal, @ourPrice, @savings, @savingsPct, @search, @account, @fee, 1, @bankFee, 1, @bodyHash)
  ON CONFLICT (cidr_id) DO UPDATE SET created_date = excluded.created_date, policy_name = excluded.policy_name,
    policy_status = excluded.policy_status, instance_type = excluded.instance_type, qty = excluded.qty,
    platform = excluded.platform, zone = excluded.zone, launch_at = excluded.launch_at, end_at = excluded.end_at,
    launch_ms = excluded.launch_ms, end_ms = excluded.end_ms, auto_renewal = excluded.auto_renewal,
    our_price = excluded.our_price, savings = excluded.savings, savings_pct = excluded.savings_pct, search = excluded.search,
    account = excluded.account, fee = excluded.fee, fee_written = 1, bank_fee = excluded.bank_fee, bank_fee_written = 1,
    body_hash = excluded.body_hash
  RETURNING rid`;
/**
 * A stored row's record hash as a refresh compares it: none for a row whose columns an earlier version wrote (its
 * bank fee unwritten, its `fee` the card fee else the bank fee), so the first refresh after the update writes it again
 * even when its record did not change. Otherwise a policy that never changes again (most: expired, completed) kept its
 * fees in its record only, and the customer page off the slim rows, for good (review14).
 */
const STORED_HASH = 'CASE WHEN bank_fee_written = 1 THEN body_hash END';
const UPSERT_BODY = 'INSERT INTO capacity_bodies (rid, body) VALUES (?, ?) ON CONFLICT (rid) DO UPDATE SET body = excluded.body';

/**
 * A whole-list rewrite as the rewrite thread runs it, inside its one
 * transaction: the same steps as #rewriteAll on the main thread, each in one
 * piece (they stall only the thread). The full-text index is rebuilt from the
 * new rows once ('rebuild' reads the content table), the kept counts by status
 * counted once.
 */
const THREAD_REWRITE: RewriteSql = {
  begin: `DROP TRIGGER IF EXISTS capacities_text_insert; DROP TRIGGER IF EXISTS capacities_text_delete; ${PAUSE_STATUS_COUNTS}
    DELETE FROM capacity_bodies; DELETE FROM capacities;`,
  insertRow: UPSERT_ROW,
  insertBody: UPSERT_BODY,
  removeRow: 'DELETE FROM capacities WHERE cidr_id = ?',
  finish: `INSERT INTO capacities_text (capacities_text) VALUES ('rebuild'); ${ROW_TEXT_TRIGGERS} ${RECOUNT_STATUS_COUNTS} ${MOVE_LIST_AND_COMMIT_VERSIONS}`,
};

type Query = ParsedLocalCapacityQuery;

const SET_META = 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';
const INSERT_DOCUMENT = 'INSERT INTO documents (kind, id, fetched_at, body) VALUES (?, ?, ?, ?)';

/** One stored record of a kind other than the capacity list. */
export interface StoredDocument {
  readonly id: string;
  readonly fetchedAt: string;
  readonly body: string;
}

/**
 * The replica of one user of one environment in an encrypted SQLite database
 * (SQLCipher format): one row per capacity policy, so writing one changed
 * policy touches one row; sort columns and a trigram full-text index answer
 * search and sort without loading the list into memory; the other kinds are
 * records of a documents table in the same file, under the same key and
 * transactions. WAL journaling makes every commit all-or-nothing across a
 * crash. On disk, reads use a connection of their own, so a full refresh
 * (one long transaction that yields) is never seen half-written.
 */
export class CapacityReplicaDb {
  readonly #db: Connection;
  /** Where reads go: a second connection on a file (it sees the last commit), the writer itself in memory. */
  readonly #read: Connection;
  readonly file: string | null;
  readonly #upsertRow: Database.Statement;
  readonly #upsertBody: Database.Statement;
  /** Null in memory; on a file, checkpoints run on a thread of their own. */
  readonly #checkpointer: WalCheckpointer | null;
  readonly #onCheckpoint: ((done: Promise<CheckpointOutcome>) => void) | undefined;
  /** On a file: what a rewrite thread opens it with, and where it says it could not run. Null in memory. */
  /** The rewrite thread while one writes this file (close waits for it to end). */
  #rewrite: RewriteThread | null = null;
  /** Records written while a streamed first sync's thread holds the write lock, until it ends (HeldDocuments). */
  #held: HeldDocuments | null = null;
  readonly #threaded: RewriteThreading | null;
  #writing = false;
  #indexesBuilt: Promise<string | null> = Promise.resolve(null);
  /**
   * The reads every keystroke of the list makes (the copy's time and left-out items, then the window's records),
   * prepared once on the reading connection: better-sqlite3 keeps no statement cache, and compiling the three
   * statements again was a good part of the host's work for a key (issues 25/26, branch keys14).
   */
  #readMeta: Database.Statement | undefined;
  #readBodies: Database.Statement | undefined;

  private constructor(
    db: Connection,
    read: Connection,
    file: string | null,
    checkpointer: WalCheckpointer | null,
    options: { readonly onCheckpoint?: ((done: Promise<CheckpointOutcome>) => void) | undefined; readonly threaded?: RewriteThreading } = {},
  ) {
    this.#db = db;
    this.#read = read;
    this.file = file;
    this.#checkpointer = checkpointer;
    this.#onCheckpoint = options.onCheckpoint;
    this.#threaded = options.threaded ?? null;
    // The customer filter's key of a row, as the in-memory index reads it (one call a row: a scan stays linear in the rows).
    read.function('account_of', { deterministic: true }, (search: unknown) => accountKey(accountOfSearchText(String(search))));
    this.#upsertRow = db.prepare(UPSERT_ROW);
    this.#upsertBody = db.prepare(UPSERT_BODY);
  }

  /**
   * Opens (or creates) the database with a 256-bit key; a wrong key, a damaged
   * first page or a file of another version throws here (SQLITE_NOTADB,
   * SQLITE_CORRUPT, ReplicaFormatError), not later.
   */
  static open(file: string, key: Buffer, options: ReplicaDbOptions = {}): CapacityReplicaDb {
    const db = openKeyed(file, key, WRITER_CACHE_KIB, options.busyMs);
    let read: Connection | null = null;
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // Checkpoints are the thread's (WalCheckpointer), never a commit's on the main thread.
      db.pragma('wal_autocheckpoint = 0');
      const later = prepareSchema(db);
      read = openKeyed(file, key, PAGE_CACHE_KIB, options.busyMs);
      read.pragma('query_only = ON');
      const writer = db;
      const warn = options.warn ?? ((message: string) => console.warn(message));
      // The fallback is the checkpoint as it ran before the thread: on the writer connection.
      const checkpointer = new WalCheckpointer(file, key, () => checkpointOn(writer), warn);
      const replica = new CapacityReplicaDb(db, read, file, checkpointer, { onCheckpoint: options.onCheckpoint, threaded: { key, warn } });
      replica.#buildLater(later, warn);
      return replica;
    } catch (error) {
      read?.close();
      db.close();
      throw error;
    }
  }

  /** Without a keychain nothing may reach the disk: the same tables, in this process's memory only. */
  static inMemory(): CapacityReplicaDb {
    const db = openConnection(':memory:');
    db.pragma('foreign_keys = ON');
    // A new database: nothing of an earlier version to build again.
    prepareSchema(db);
    return new CapacityReplicaDb(db, db, null, null);
  }

  /**
   * Resolves once the indexes an earlier version defined otherwise are built on the checkpoint thread (null), or
   * with why not (their earlier definitions kept, answering the same reads; the next open tries again).
   */
  get indexesBuilt(): Promise<string | null> {
    return this.#indexesBuilt;
  }

  /**
   * An older copy's indexes, made again after the open on the checkpoint thread (idx15): on the main thread at the
   * open they held the first launch after an update for 6-10 s at 100,000 policies (review14). The log they leave is
   * moved into the file after.
   */
  #buildLater(indexes: readonly IndexToBuild[], warn: (message: string) => void): void {
    if (indexes.length === 0 || !this.#checkpointer) return;
    const checkpointer = this.#checkpointer;
    this.#indexesBuilt = checkpointer.build(indexes).then((failed) => {
      if (failed !== null) warn(`the replica's indexes ${indexes.map(({ name }) => name).join(', ')} were not built again (${failed}); the earlier ones answer until the next open`);
      else this.#committed(true);
      return failed;
    });
    // The build writes the log from the thread like a checkpoint: whoever watches the files is told, so its writes
    // are ours, not a change behind the app's back (that would reopen the copy and read every page of it).
    this.#onCheckpoint?.(this.#indexesBuilt.then(() => ({ frames: 0, truncated: false })));
  }

  /** True while a full refresh is under way (in memory, reads then see it half done and must wait). */
  get writing(): boolean {
    return this.#writing;
  }

  /** From the kept counts by status: a launch's first calls read no index of the list to size it. */
  get count(): number {
    return keptStatusCounts(this.#read).reduce((sum, [, policies]) => sum + policies, 0);
  }

  get fetchedAt(): string | null {
    return this.meta('capacities.fetchedAt');
  }

  meta(key: string): string | null {
    const held = this.#held?.meta(key);
    if (held !== undefined) return held;
    this.#readMeta ??= this.#read.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    const value = this.#readMeta.get(key) as string | undefined;
    return value ?? null;
  }

  /** Items of the list the last refresh could not keep (no id), with why: what the views say was left out. */
  get leftOut(): SkippedItem[] {
    const raw = this.meta('capacities.leftOut');
    if (raw === null) return [];
    try {
      const parsed = LeftOut.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  }

  /**
   * A full refresh: the new list replaces the old one in a single commit, the
   * old list whole until then. Over a copy, each fetched row is compared with
   * the stored one (the hash of its record) and only the rows that changed
   * are written, only the gone ones deleted, each with its full-text entry
   * (the row triggers); a first sync, or one where most rows changed, rewrites
   * the whole list with the index filled in bulk: on a file and from
   * REWRITE_THREAD_FROM_ROWS rows, by a thread of its own (RewriteThread), the
   * main thread only preparing rows. Policies in
   * `writtenThrough` (since the refresh began) stay as written. Each id is
   * written once, by one rule for both paths (oneCopyEach). The main thread's
   * work runs in slices of SLICE_MS that yield, so the main process keeps
   * answering; the checkpoint after it runs on its thread.
   */
  async replaceAll(
    policies: readonly CapacityRow[],
    fetchedAt: string,
    leftOut: readonly SkippedItem[] = [],
    writtenThrough: ReadonlyMap<string, CapacityRow> = new Map(),
    beforeThreadCommit: () => void = () => undefined,
  ): Promise<RefreshWrites> {
    // One transaction keeps the old list whole until the new one is; the slices inside it yield.
    this.#db.exec('BEGIN IMMEDIATE');
    this.#writing = true;
    let writes: RefreshWrites | null = null;
    try {
      const list = withWrittenThrough(await oneCopyEach(policies), writtenThrough);
      const stored = await this.#storedRows();
      const diff = await diffWithStored(list, stored);
      const meta = listMeta(fetchedAt, leftOut);
      if (diff.rewrite && this.#threaded && list.length >= REWRITE_THREAD_FROM_ROWS) {
        // Nothing written yet: the thread takes the write lock (the replica's queue keeps every other write behind this one).
        this.#db.exec('ROLLBACK');
        writes = await this.#rewriteOnThread(list, stored.size, meta, this.#threaded, beforeThreadCommit);
        if (!writes) this.#db.exec('BEGIN IMMEDIATE');
      }
      if (!writes) {
        writes = diff.rewrite ? await this.#rewriteAll(list) : await this.#writeChanges(list, diff.changed, diff.gone);
        for (const [key, value] of meta) this.#setMeta(key, value);
        this.#db.exec(MOVE_LIST_AND_COMMIT_VERSIONS);
        this.#db.exec('COMMIT');
      }
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    } finally {
      this.#writing = false;
    }
    // The refresh sits in the WAL until a checkpoint: the thread moves it into the file (not awaited).
    this.#committed(true);
    return writes;
  }

  /**
   * A refresh over a copy from a list compared page by page as it came (ListedAgainstStored): in one transaction
   * the stored rows are read again and compared with it, the rows that differ written and the gone ones deleted,
   * as replaceAll does when few rows differ. Null, with nothing written, when it cannot be done from what the list
   * held: a row differs from the copy as it is now that it did not differ from when the fetch began (the copy
   * changed meanwhile), or so many differ that the whole list is to be rewritten; the caller then has the whole
   * list to write. Policies in `writtenThrough` stay as written, and lead when the list does not hold them.
   */
  async replaceChanges(listed: ListedAgainstStored, fetchedAt: string, leftOut: readonly SkippedItem[] = [], writtenThrough: ReadonlyMap<string, CapacityRow> = new Map()): Promise<RefreshWrites | null> {
    this.#db.exec('BEGIN IMMEDIATE');
    this.#writing = true;
    let writes: RefreshWrites;
    try {
      const stored = await this.#storedRows();
      const differs = (row: CapacityRow) => stored.get(row.cidrId)?.hash !== contentHash(storedBody(row));
      // Oldest first as the pages came; reversed below into the order a refresh writes (newest first).
      const changed: CapacityRow[] = [];
      let lacking = false;
      const walk = listed.entries();
      await inSlices(() => {
        const entry = walk.next();
        if (entry.done) return false;
        const [cidrId, rowOrHash] = entry.value;
        const row = writtenThrough.get(cidrId) ?? rowOrHash;
        if (typeof row !== 'string') {
          if (differs(row)) changed.push(row);
        } else if (stored.get(cidrId)?.hash !== row) {
          lacking = true;
          return false;
        }
        return true;
      });
      const leading = [...writtenThrough.values()].filter((row) => !listed.has(row.cidrId));
      const list = [...leading.filter(differs), ...changed.reverse()];
      const gone: number[] = [];
      const storedRows = stored.entries();
      await inSlices(() => {
        const entry = storedRows.next();
        if (entry.done) return false;
        if (!listed.has(entry.value[0]) && !writtenThrough.has(entry.value[0])) gone.push(entry.value[1].rid);
        return true;
      });
      if (lacking || rewriteIsCheaper(list.length + gone.length, stored.size, listed.size + leading.length)) {
        this.#db.exec('ROLLBACK');
        return null;
      }
      writes = await this.#writeChanges(list, list.map((_, i) => i), gone);
      for (const [key, value] of listMeta(fetchedAt, leftOut)) this.#setMeta(key, value);
      this.#db.exec(MOVE_LIST_AND_COMMIT_VERSIONS);
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    } finally {
      this.#writing = false;
    }
    this.#committed(true);
    return writes;
  }

  /**
   * Up to `limit` stored rows after row id `after` as [row id, policy id, record hash], on the reading connection:
   * what a refresh over the copy compares its pages with as they come (ListedAgainstStored).
   */
  storedHashesAfter(after: number, limit: number): Array<[number, string, string | null]> {
    return this.#read.prepare(`SELECT rid, cidr_id, ${STORED_HASH} FROM capacities WHERE rid > ? ORDER BY rid LIMIT ?`).raw().all(after, limit) as Array<[number, string, string | null]>;
  }

  /**
   * The whole list rewritten by a thread with its own connection, in its one
   * transaction (meta included); the main thread prepares each row (its slim
   * columns, record and hash) in slices and posts them in chunks. Null when
   * the thread could not start or open the file (said once): nothing was
   * written, and the main thread rewrites instead.
   */
  async #rewriteOnThread(
    list: readonly CapacityRow[],
    before: number,
    meta: ReadonlyArray<readonly [string, string]>,
    threaded: RewriteThreading,
    beforeCommit: () => void,
  ): Promise<RefreshWrites | null> {
    const file = this.file as string;
    let thread: RewriteThread;
    try {
      thread = RewriteThread.start(file, threaded.key, THREAD_REWRITE, THREAD_CACHE_KIB);
      this.#rewrite = thread;
    } catch (error) {
      threaded.warn(`the replica's rewrite thread could not start (${error instanceof Error ? error.message : String(error)}); the list is written on the main thread`);
      return null;
    }
    try {
      let next = 0;
      let chunk: RewriteRow[] = [];
      do {
        // One chunk prepared in slices, then handed over (waiting while the thread has enough queued).
        await inSlices(() => {
          const policy = list[next++];
          if (policy) chunk.push(threadRow(policy, null));
          return chunk.length < THREAD_CHUNK_ROWS && next < list.length;
        });
        await thread.add(chunk);
        chunk = [];
      } while (next < list.length);
      // From the thread's COMMIT on, readers of this file see the new list, whose row ids are not the old ones:
      // whoever keeps rows read from the old list drops them now, before it can land.
      beforeCommit();
      await thread.finish(meta);
    } catch (error) {
      await thread.abandon();
      if (error instanceof RewriteFailure && error.beforeStart && !error.code?.startsWith('SQLITE_CORRUPT') && error.code !== 'SQLITE_NOTADB') {
        threaded.warn(`the replica's rewrite thread could not run (${error.message}); the list is written on the main thread`);
        return null;
      }
      throw error;
    } finally {
      this.#rewrite = null;
    }
    return { written: list.length, writtenIds: [], deleted: before, rewrote: true, onThread: true };
  }

  /**
   * A first sync written as its pages come (FirstSyncStream), by the rewrite thread in its one transaction
   * from now until `finish` commits it; `beforeCommit` as replaceAll's. Null when it cannot be: in memory, a
   * copy that already holds a list (a refresh over it compares rows first), or a thread that could not start
   * (said once): the caller then holds the list and writes it whole (replaceAll). Meanwhile the thread holds
   * the file's write lock: the app's writes of documents are held until it ends (#writeDocuments).
   */
  async beginStreamedRewrite(beforeCommit: () => void, ended: () => void): Promise<FirstSyncStream | null> {
    const threaded = this.#threaded;
    if (!threaded || !this.file || this.#rewrite || this.fetchedAt !== null || this.count > 0) return null;
    let thread: RewriteThread;
    try {
      thread = RewriteThread.start(this.file, threaded.key, THREAD_REWRITE, THREAD_CACHE_KIB);
    } catch (error) {
      threaded.warn(`the replica's rewrite thread could not start (${error instanceof Error ? error.message : String(error)}); the list is written once fetched`);
      return null;
    }
    this.#rewrite = thread;
    this.#held = new HeldDocuments();
    const started = await thread.started();
    if (started !== true) {
      this.#rewrite = null;
      await thread.abandon();
      this.#writeHeld();
      // A damaged or foreign file is the caller's to hear of (the copy is then replaced), as replaceAll's.
      if (started.code?.startsWith('SQLITE_CORRUPT') || started.code === 'SQLITE_NOTADB') throw started;
      threaded.warn(`the replica's rewrite thread could not run (${started.message}); the list is written once fetched`);
      return null;
    }
    const end = () => {
      if (this.#rewrite === thread) this.#rewrite = null;
      // The thread has committed or rolled back: the lock is free for what was held meanwhile.
      this.#writeHeld();
      ended();
    };
    return new FirstSyncStream({
      thread,
      rowOf: threadRow,
      commit: async (fetchedAt, leftOut) => {
        try {
          beforeCommit();
          await thread.finish(listMeta(fetchedAt, leftOut));
        } catch (error) {
          await thread.abandon();
          throw error;
        } finally {
          end();
        }
        this.#committed(true);
      },
      abandon: async () => {
        try {
          await thread.abandon();
        } finally {
          end();
        }
      },
    });
  }

  /** Every stored row's id, row id and record hash, read in slices on the writer (inside its transaction). */
  async #storedRows(): Promise<Map<string, StoredRow>> {
    const rows = new Map<string, StoredRow>();
    const batch = this.#db.prepare(`SELECT rid, cidr_id, ${STORED_HASH} FROM capacities WHERE rid > ? ORDER BY rid LIMIT ${SLIM_BATCH}`).raw();
    let after = 0;
    await inSlices(() => {
      const tuples = batch.all(after) as Array<[number, string, string | null]>;
      for (const [rid, cidrId, hash] of tuples) {
        rows.set(cidrId, { rid, hash });
        after = rid;
      }
      return tuples.length === SLIM_BATCH;
    });
    return rows;
  }

  /** The rows that changed written (new ones added), the gone ones deleted; the index follows each by its triggers. */
  async #writeChanges(list: readonly CapacityRow[], changed: readonly number[], gone: readonly number[]): Promise<RefreshWrites> {
    let next = 0;
    await inSlices(() => {
      const policy = list[changed[next++] ?? -1];
      if (policy) this.#write(policy);
      return next < changed.length;
    });
    const remove = this.#db.prepare('DELETE FROM capacities WHERE rid = ?');
    let deleted = 0;
    await inSlices(() => {
      const rid = gone[deleted];
      if (rid !== undefined) {
        remove.run(rid);
        deleted += 1;
      }
      return deleted < gone.length;
    });
    return { written: changed.length, writtenIds: changed.map((i) => (list[i] as CapacityRow).cidrId), deleted: gone.length, rewrote: false, onThread: false };
  }

  /**
   * The whole list rewritten: the row triggers of the index are dropped inside
   * the transaction, the index is cleared at once (`delete-all`) and filled
   * from the new rows in slices, and the triggers are created again before
   * the COMMIT (a rollback brings them back).
   */
  async #rewriteAll(list: readonly CapacityRow[]): Promise<RefreshWrites> {
    const before = this.#db.prepare('SELECT count(*) FROM capacities').pluck().get() as number;
    this.#db.exec(`DROP TRIGGER IF EXISTS capacities_text_insert; DROP TRIGGER IF EXISTS capacities_text_delete;
      INSERT INTO capacities_text (capacities_text) VALUES ('delete-all');`);
    // The kept counts by status: their triggers on every row cost seconds at 100,000; counted once before the COMMIT.
    pauseStatusCounts(this.#db);
    for (const table of ['capacity_bodies', 'capacities']) {
      const deleteSome = this.#db.prepare(`DELETE FROM ${table} WHERE rid IN (SELECT rid FROM ${table} ORDER BY rid LIMIT ${SLICE_ROWS})`);
      await inSlices(() => deleteSome.run().changes > 0);
    }
    let next = 0;
    await inSlices(() => {
      const policy = list[next++];
      if (policy) this.#write(policy);
      return next < list.length;
    });
    const addText = this.#db.prepare(`INSERT INTO capacities_text (rowid, search) SELECT rid, search FROM capacities WHERE rid > ? ORDER BY rid LIMIT ${SLICE_ROWS} RETURNING rowid`).pluck();
    let after = 0;
    await inSlices(() => {
      const added = addText.all(after) as number[];
      after = added.length > 0 ? Math.max(after, ...added) : after;
      return added.length === SLICE_ROWS;
    });
    // The index's last pending terms are written now, in a step of their own, rather than by the COMMIT.
    this.#db.exec(`INSERT INTO capacities_text (capacities_text) VALUES ('flush')`);
    await yieldToEventLoop();
    this.#db.exec(ROW_TEXT_TRIGGERS);
    recountStatusCounts(this.#db);
    return { written: list.length, writtenIds: [], deleted: before, rewrote: true, onThread: false };
  }

  /**
   * Asks for the write-ahead log to be moved into the file (on the checkpoint
   * thread); resolves when it has been. Each commit asks for it by itself.
   */
  checkpoint(): Promise<CheckpointOutcome> {
    return this.#checkpointer?.request() ?? Promise.resolve({ frames: 0, truncated: false });
  }

  /** True while checkpoints run on their thread (false in memory, or once the thread failed). */
  get checkpointsThreaded(): boolean {
    return this.#checkpointer?.threaded ?? false;
  }

  /**
   * Drops the activity record versions before own data kept here: it was moved into own data, and its owner asked for
   * their own data's removal (a fresh own data would move it in again at its opening). No policy changes.
   */
  forgetLegacyActivity(): void {
    commitKeepingVersion(this.#db, () => this.#db.exec('DROP TABLE IF EXISTS activity'));
    this.#committed(false);
  }

  /** The savings an overview counted, kept with the copy (overview/replica-overview.ts). */
  keepOverviewSavings(savings: SavingsToKeep): void {
    // No policy changes: what was derived from the copy before (kept worklist answers, account names) still holds.
    commitKeepingVersion(this.#db, () => keepSavings(this.#db, savings));
    this.#committed(false);
  }

  /** Write-through of one policy the service just answered with. */
  upsert(policy: CapacityRow): void {
    commitMovingListVersion(this.#db, () => this.#write(policy));
    this.#committed(false);
  }

  /** The one place a policy's row, record and record hash are written (the index follows by its triggers, when they are in place). */
  #write(policy: CapacityRow): void {
    const body = storedBody(policy);
    const { rid } = this.#upsertRow.get({ rid: null, ...toRow(policy), bodyHash: contentHash(body) }) as { rid: number };
    this.#upsertBody.run(rid, body);
  }

  /** Every record of a kind, replaced in one commit. */
  replaceDocuments(kind: string, documents: readonly StoredDocument[], fetchedAt: string): void {
    const statements: SqlStatement[] = [
      ['DELETE FROM documents WHERE kind = ?', [kind]],
      ...documents.map((doc): SqlStatement => [INSERT_DOCUMENT, [kind, doc.id, doc.fetchedAt, doc.body]]),
      [SET_META, [`${kind}.fetchedAt`, fetchedAt]],
    ];
    this.#writeDocuments(statements, (held) => held.replace(kind, documents, fetchedAt, statements));
  }

  /** One record of a kind, added or replaced; the others stay as they are. */
  putDocument(kind: string, document: StoredDocument): void {
    const statements: SqlStatement[] = [
      [`${INSERT_DOCUMENT} ON CONFLICT (kind, id) DO UPDATE SET fetched_at = excluded.fetched_at, body = excluded.body`, [kind, document.id, document.fetchedAt, document.body]],
      // The kind's age is that of its first record until the whole kind is written.
      ['INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [`${kind}.fetchedAt`, document.fetchedAt]],
    ];
    this.#writeDocuments(statements, (held) => held.put(kind, document, this.meta(`${kind}.fetchedAt`), statements));
  }

  /**
   * Documents written in one commit; while a streamed first sync's thread holds the file's write lock, held
   * (HeldDocuments: readable at once, written when the thread ends) by `hold`.
   */
  #writeDocuments(statements: readonly SqlStatement[], hold: (held: HeldDocuments) => void): void {
    if (this.#held && this.#rewrite) {
      hold(this.#held);
      return;
    }
    this.#writeStatements(statements);
  }

  /** What was held while a streamed first sync's thread held the write lock, written now it has ended. */
  #writeHeld(): void {
    const held = this.#held;
    this.#held = null;
    if (held && held.statements.length > 0) this.#writeStatements(held.statements);
  }

  #writeStatements(statements: readonly SqlStatement[]): void {
    commitMovingVersion(this.#db, () => {
      for (const [sql, params] of statements) this.#db.prepare(sql).run(...params);
    });
    this.#committed(false);
  }

  /** True while records are held beside a streamed first sync (HeldDocuments): they are read, but move no commit version. */
  get holdsRecords(): boolean {
    return this.#held !== null && this.#held.statements.length > 0;
  }

  documents(kind: string): StoredDocument[] {
    const stored = () => this.#read.prepare('SELECT id, fetched_at AS fetchedAt, body FROM documents WHERE kind = ? ORDER BY id').all(kind) as StoredDocument[];
    return this.#held ? this.#held.documents(kind, stored) : stored();
  }

  document(kind: string, id: string): StoredDocument | null {
    const stored = () => (this.#read.prepare('SELECT id, fetched_at AS fetchedAt, body FROM documents WHERE kind = ? AND id = ?').get(kind, id) as StoredDocument | undefined) ?? null;
    return this.#held ? this.#held.document(kind, id, stored) : stored();
  }

  documentIds(kind: string): string[] {
    if (this.#held) return this.documents(kind).map((doc) => doc.id);
    return this.#read.prepare('SELECT id FROM documents WHERE kind = ? ORDER BY id').pluck().all(kind) as string[];
  }

  /** The activity record versions before own data kept here (table `activity`), in the order written; empty when there is none. */
  legacyActivity(): string[] {
    const kept = this.#read.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'activity'`).get() !== undefined;
    return kept ? (this.#read.prepare('SELECT body FROM activity ORDER BY seq').pluck().all() as string[]) : [];
  }

  query(query: Query): { rows: CapacityRow[]; total: number } {
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    if (query.status) {
      where.push('policy_status = @status');
      params.status = query.status;
    }
    if (query.match) {
      where.push('instance_type = @matchType AND platform = @matchPlatform AND zone = @matchZone');
      params.matchType = query.match.instanceType;
      params.matchPlatform = query.match.platform;
      params.matchZone = query.match.availabilityZone;
    }
    if (query.accounts) {
      // Through the account column's index (a customer's few names), not a function call on every row.
      const accounts = accountCondition(this.#read, query.accounts);
      where.push(accounts.sql);
      Object.assign(params, accounts.params);
    }
    const filters = query.filters;
    if (filters?.account !== undefined) {
      // Compared as the customer filter and the in-memory index compare it (accountKey).
      where.push('account_of(search) = @account');
      params.account = accountKey(filters.account);
    }
    if (filters?.instanceType !== undefined) {
      where.push('instance_type = @instanceType');
      params.instanceType = filters.instanceType;
    }
    if (filters?.availabilityZone !== undefined) {
      where.push('zone = @zone');
      params.zone = filters.availabilityZone;
    }
    if (filters?.launchFromMs !== undefined) {
      where.push('launch_ms >= @launchFrom');
      params.launchFrom = filters.launchFromMs;
    }
    if (filters?.launchToMs !== undefined) {
      where.push('launch_ms < @launchTo');
      params.launchTo = filters.launchToMs;
    }
    if (filters?.quantity !== undefined) {
      where.push('qty = @qty AND instance_type = @qtyType COLLATE NOCASE');
      params.qty = filters.quantity.qty;
      params.qtyType = filters.quantity.instanceType;
    }
    if (filters?.runningAtMs !== undefined) {
      // launchesLater's rule (summarize.ts) in SQL: active, and launched by then or its launch not known (NULL).
      where.push("policy_status = 'ACTIVE' AND (launch_ms IS NULL OR launch_ms <= @runningAt)");
      params.runningAt = filters.runningAtMs;
    }
    const needle = query.text.trim().toLowerCase();
    if (needle) {
      // The trigram index takes a quoted phrase literally (no wildcards, unlike its LIKE, which
      // ignores ESCAPE); it needs three characters, so shorter needles scan the text column.
      if ([...needle].length >= 3) {
        where.push('rid IN (SELECT rowid FROM capacities_text WHERE capacities_text MATCH @phrase)');
        params.phrase = `"${needle.replace(/"/g, '""')}"`;
      } else {
        where.push('instr(search, @needle) > 0');
        params.needle = needle;
      }
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.#read.prepare(`SELECT count(*) AS n FROM capacities ${clause}`).get(params) as { n: number }).n;
    const direction = query.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const rows = this.#read
      .prepare(
        `SELECT b.body FROM (SELECT rid FROM capacities ${clause} ORDER BY ${ORDER_BY[query.sortBy === 'fee' ? 'createdDate' : query.sortBy]} ${direction}, rid ${direction} LIMIT @limit OFFSET @offset) AS page
         JOIN capacity_bodies AS b USING (rid)`,
      )
      .all({ ...params, limit: query.limit, offset: query.offset }) as { body: string }[];
    return { rows: rows.map((r) => JSON.parse(r.body) as CapacityRow), total };
  }

  /** Every policy as a slim row (no body): what search, sort and the overview need, in one pass. */
  slimRows(): SlimCapacityRow[] {
    return (this.#read.prepare(`${SLIM_SELECT} ORDER BY rid`).raw().all() as SlimTuple[]).map(slimRow);
  }

  /**
   * The slim rows in batches, yielding between them so the main process keeps
   * answering. No read transaction pins a snapshot across the yields: it would
   * be the reading connection's, which every person's read shares, and a
   * purchase written through meanwhile would stay hidden from them while the
   * load waits for requests (RequestsFirst). A write meanwhile is caught by
   * the caller instead (CapacityReplica's generation: rows read across a write
   * are never kept). `turn`: what each slice waits for besides the event loop.
   */
  async slimRowsInBatches(turn?: SliceTurn): Promise<SlimCapacityRow[]> {
    const rows: SlimCapacityRow[] = [];
    const batch = this.#read.prepare(`${SLIM_SELECT} WHERE rid > ? ORDER BY rid LIMIT ${SLIM_BATCH}`).raw();
    // 2,000 rows between yields took 100-170 ms at load 10 after a refresh: the reading is time-sliced too.
    let after = 0;
    await inSlices(() => {
      const tuples = batch.all(after) as SlimTuple[];
      for (const tuple of tuples) rows.push(slimRow(tuple));
      after = tuples.length > 0 ? (tuples[tuples.length - 1] as SlimTuple)[0] : after;
      return tuples.length === SLIM_BATCH;
    }, turn);
    return rows;
  }

  slimRow(cidrId: string): SlimCapacityRow | null {
    const tuple = this.#db.prepare(`${SLIM_SELECT} WHERE cidr_id = ?`).raw().get(cidrId) as SlimTuple | undefined;
    return tuple ? slimRow(tuple) : null;
  }

  /** Runs a read of its own (the overview's counts, electron/services/overview) on the reading connection. */
  readWith<T>(read: (connection: Connection) => T): T {
    return read(this.#read);
  }

  /**
   * Reads of several statements as one snapshot (rows, then their records by row id): each statement is otherwise a
   * read transaction of its own, and the rewrite thread commits from its own thread, clearing the table and numbering
   * the rows from 1 again, so a row id read before its commit names another policy after it (review13). Synchronous:
   * no yield holds the snapshot.
   */
  inOneRead<T>(read: () => T): T {
    if (this.#read.inTransaction) return read();
    this.#read.exec('BEGIN');
    try {
      return read();
    } finally {
      this.#read.exec('COMMIT');
    }
  }

  /** Whole records for the given rows, in the order given. */
  bodies(rids: readonly number[]): CapacityRow[] {
    return this.bodyTexts(rids).map((body) => JSON.parse(body) as CapacityRow);
  }

  /** The stored records of `rids` as their text, in the order of `rids` (a row gone meanwhile left out). */
  bodyTexts(rids: readonly number[]): string[] {
    if (rids.length === 0) return [];
    this.#readBodies ??= this.#read.prepare(`SELECT rid, body FROM capacity_bodies WHERE rid IN (SELECT value FROM json_each(?))`);
    const found = this.#readBodies.all(JSON.stringify(rids)) as {
      rid: number;
      body: string;
    }[];
    const byRid = new Map(found.map((r) => [r.rid, r.body]));
    return rids.flatMap((rid) => {
      const body = byRid.get(rid);
      return body === undefined ? [] : [body];
    });
  }

  /** Every whole record, in storage order (rarely wanted: the slim rows serve search, sort and the overview). */
  allBodies(): CapacityRow[] {
    return (this.#read.prepare('SELECT body FROM capacity_bodies ORDER BY rid').pluck().all() as string[]).map((b) => JSON.parse(b) as CapacityRow);
  }

  /** Resolves once the checkpoint thread has exited and both connections are closed: nothing of this database writes after. */
  async close(): Promise<void> {
    // A rewrite under way is rolled back and its thread waited for: its connection must not write into a file
    // closed (or removed, for a copy found unreadable) under it.
    await this.#rewrite?.abandon();
    try {
      // Rolled back: what was held meanwhile is written before the connections close.
      this.#writeHeld();
    } finally {
      await this.#checkpointer?.close();
      if (this.#read !== this.#db) this.#read.close();
      this.#db.close();
    }
  }

  /**
   * After a commit: the log is moved into the file by the checkpoint thread
   * after every full refresh, and after a small write once the log has grown
   * past LOG_CHECKPOINT_BYTES (SQLite's own automatic threshold); whoever
   * watches the files is told.
   */
  #committed(fullRefresh: boolean): void {
    if (!this.#checkpointer || !this.file) return;
    if (!fullRefresh && logBytes(this.file) < LOG_CHECKPOINT_BYTES) return;
    this.#onCheckpoint?.(this.#checkpointer.request());
  }

  #setMeta(key: string, value: string): void {
    this.#db.prepare(SET_META).run(key, value);
  }
}

/**
 * Reads every page of a replica file that holds data (with a connection of
 * its own and a small page cache), yielding between batches: SQLCipher
 * authenticates each page as it is read, so a page damaged anywhere throws
 * SQLITE_CORRUPT here, soon after opening, rather than when a view first
 * needs that page.
 */
export async function verifyReplicaFile(file: string, key: Buffer, shouldStop: () => boolean = () => false, turn?: SliceTurn): Promise<void> {
  const db = openKeyed(file, key, 2 * 1024);
  try {
    db.pragma('query_only = ON');
    const trees = db
      .prepare(`SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE rootpage > 0 AND type IN ('table', 'index') ORDER BY type DESC, name`)
      .all() as Array<{ type: 'table' | 'index'; name: string; tbl: string; sql: string | null }>;
    // Each tree, and each batch of a table, waits for the event loop and its turn (`turn`) first.
    const between = async () => {
      await yieldToEventLoop();
      await turn?.();
    };
    for (const tree of trees) {
      await between();
      if (shouldStop()) return;
      if (tree.type === 'index') {
        // Summing over an index scan visits every one of its pages. Not count(*): SQLite answers that
        // from the smallest index whatever INDEXED BY names, so the others went unread. A partial
        // index is used only under its own condition: without it SQLite refuses the INDEXED BY.
        const partial = partialCondition(tree.sql);
        db.prepare(`SELECT sum(1) FROM ${quoted(tree.tbl)} INDEXED BY ${quoted(tree.name)}${partial ? ` WHERE ${partial}` : ''}`).get();
        continue;
      }
      // A full scan reads every page of the table, overflow pages included; it yields every batch.
      let seen = 0;
      for (const row of db.prepare(`SELECT * FROM ${quoted(tree.name)}`).raw().iterate()) {
        void row;
        seen += 1;
        if (seen % VERIFY_BATCH === 0) {
          await between();
          if (shouldStop()) return;
        }
      }
    }
  } finally {
    db.close();
  }
}

/** What a rewrite thread opens the file with, and where a thread that could not run is said. */
interface RewriteThreading {
  readonly key: Buffer;
  readonly warn: (message: string) => void;
}

/** What opening a replica file may be told besides the file and its key. */
export interface ReplicaDbOptions {
  /** Told when the checkpoint thread could not run and the main thread checkpoints instead (default: console.warn). */
  readonly warn?: (message: string) => void;
  /**
   * Told of each checkpoint a commit asked for, as it starts: the files on
   * disk change until it settles, by this app's hand (the Replica's disk check).
   */
  readonly onCheckpoint?: (done: Promise<CheckpointOutcome>) => void;
  /** How long the two connections wait for a lock held by another program before SQLITE_BUSY (default BUSY_WAIT_MS). */
  readonly busyMs?: number | undefined;
}

/** The write-ahead log's size (0 when there is none). */
function logBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** The checkpoint on the main thread's writer connection: the fallback when the thread cannot run. */
function checkpointOn(db: Connection): CheckpointOutcome {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; checkpointed: number }>;
  return { frames: result?.checkpointed ?? 0, truncated: result?.busy === 0 };
}

/** The WHERE of a partial index's CREATE INDEX statement (ours: no string holds the word). */
export function partialCondition(sql: string | null): string | null {
  const match = sql ? /\)\s*WHERE\s+([\s\S]+)$/i.exec(sql) : null;
  return match?.[1]?.trim() ?? null;
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Thrown when a replica opened with its key was written by another version of the app. */
export class ReplicaFormatError extends Error {
  constructor(found: string) {
    super(`replica written in format ${found}, this version reads ${REPLICA_FORMAT}`);
    this.name = 'ReplicaFormatError';
  }
}

/** Returns the indexes an earlier version defined otherwise, left as they are, to be built off the open (idx15). */
function prepareSchema(db: Connection): IndexToBuild[] {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get() !== undefined;
  const found = hasMeta ? (db.prepare(`SELECT value FROM meta WHERE key = 'format'`).get() as { value: string } | undefined)?.value : undefined;
  if (found !== undefined && found !== REPLICA_FORMAT) throw new ReplicaFormatError(found);
  db.exec(SCHEMA);
  db.exec(ROW_TEXT_TRIGGERS);
  addColumnIfMissing(db, 'capacities', 'account', 'TEXT');
  // The hash of the stored record, so a refresh over the copy writes only what changed (empty in older copies: all taken as changed once).
  addColumnIfMissing(db, 'capacities', 'body_hash', 'TEXT');
  // The processing fee (customers/replica-accounts.ts): a customer page sums it over their bought policies, which
  // read out of each record took most of a large customer's page. A row of an older copy reads fee_written 0 (no
  // row is rewritten to add them) until it is written again: its fee is then read out of its record.
  addColumnIfMissing(db, 'capacities', 'fee', 'REAL');
  addColumnIfMissing(db, 'capacities', 'fee_written', 'INTEGER NOT NULL DEFAULT 0');
  // The bank-transfer fee beside it (money14): the service states both processing fees and not which one the customer
  // pays, so the page sums each. Since these columns `fee` holds the card fee alone; before, the card fee else the
  // bank fee. So a row's two fee columns are believed only once `bank_fee_written` is 1 (written by this version);
  // a row of an older copy has both read out of its record until it is written again (no row is rewritten to add them).
  addColumnIfMissing(db, 'capacities', 'bank_fee', 'REAL');
  addColumnIfMissing(db, 'capacities', 'bank_fee_written', 'INTEGER NOT NULL DEFAULT 0');
  keepOverviewIndexes(db);
  const later = keepUpcomingIndexes(db);
  keepStatusCounts(db);
  db.exec(ACCOUNT_INDEX);
  db.exec(UPCOMING_HEAD_INDEX);
  if (found === undefined) db.prepare(`INSERT INTO meta (key, value) VALUES ('format', ?) ON CONFLICT (key) DO NOTHING`).run(REPLICA_FORMAT);
  return later;
}

/** A column added after the table's first release: copies made before gain it empty (filled by their next write). */
function addColumnIfMissing(db: Connection, table: string, column: string, type: string): void {
  const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
  if (!columns.includes(column)) db.exec(`ALTER TABLE ${quoted(table)} ADD COLUMN ${quoted(column)} ${type}`);
}

const SLIM_SELECT = `SELECT rid, cidr_id, created_date, policy_name, policy_status, instance_type, qty, platform, zone,
  launch_at, end_at, launch_ms, end_ms, auto_renewal, our_price, savings, savings_pct, search, account, fee, bank_fee, bank_fee_written FROM capacities`;

type SlimTuple = [
  ...[number, string, string, string, string, string, number, string, string, string, string, number | null, number | null, number, number | null, number | null, number | null, string],
  account: string | null,
  fee: number | null,
  bankFee: number | null,
  feesWritten: number,
];

/** What a full refresh wrote: rows written (new or changed) and deleted, and whether it rewrote the whole list. */
export interface RefreshWrites {
  readonly written: number;
  /** The ids of the rows written, when it did not rewrite the whole list (empty when it did). */
  readonly writtenIds: readonly string[];
  readonly deleted: number;
  readonly rewrote: boolean;
  /** True when a thread of its own wrote it (a whole rewrite of a file), not the main thread. */
  readonly onThread: boolean;
}

/** One policy as the slim table holds it: as much of a policy as search, sort and the overview read. */
export interface SlimCapacityRow {
  readonly rid: number;
  readonly cidrId: string;
  readonly policyName: string;
  readonly policyStatus: string;
  readonly createdDate: string;
  readonly policyInstance: { readonly instanceType: string; readonly qty: number; readonly platformCode: string };
  readonly capacityConfiguration: { readonly launchDateTime: string; readonly endDateTime: string; readonly autoRenewalEnabled: boolean };
  readonly pricing: { readonly savings: number };
  readonly zone: string;
  readonly launchMs: number | null;
  readonly endMs: number | null;
  readonly ourPrice: number | null;
  readonly savingsPercentage: number | null;
  /** Lower-case id, name, instance type, zone and account, as the search matches them. */
  readonly search: string;
  /** The policy's account as the service wrote it; null in a row of a copy written before the column existed. */
  readonly account: string | null;
  /**
   * The card processing fee (null when its record names none, for a policy of any status); undefined in a row
   * written before the two fee columns were, whose fees are then only in its record.
   */
  readonly fee: number | null | undefined;
  /** The bank-transfer processing fee, likewise. */
  readonly bankFee: number | null | undefined;
}

/** Between the parts of a row's search text; the account is the last part. */
const SEARCH_PARTS = '\u0001';

/**
 * A policy's account (lower case) from its search text, where it is the last part: the customer filter
 * reads it there, so the copy's layout needs no column of its own for it.
 */
export function accountOfSearchText(search: string): string {
  return search.slice(search.lastIndexOf(SEARCH_PARTS) + 1);
}

function slimRow(t: SlimTuple): SlimCapacityRow {
  const [rid, cidrId, createdDate, policyName, policyStatus, instanceType, qty, platformCode, zone, launchDateTime, endDateTime, launchMs, endMs, autoRenewal, ourPrice, savings, savingsPercentage, search, account, fee, bankFee, feesWritten] = t;
  return {
    rid,
    cidrId,
    createdDate,
    policyName,
    policyStatus,
    policyInstance: { instanceType, qty, platformCode },
    zone,
    capacityConfiguration: { launchDateTime, endDateTime, autoRenewalEnabled: autoRenewal === 1 },
    pricing: { savings: savings ?? 0 },
    launchMs,
    endMs,
    ourPrice,
    savingsPercentage,
    search,
    account,
    fee: feesWritten === 1 ? fee : undefined,
    bankFee: feesWritten === 1 ? bankFee : undefined,
  };
}

/** What the meta says of a list written whole: when it was fetched, and the items it could not keep. */
function listMeta(fetchedAt: string, leftOut: readonly SkippedItem[]): ReadonlyArray<readonly [string, string]> {
  return [
    ['capacities.fetchedAt', fetchedAt],
    ['capacities.leftOut', JSON.stringify(leftOut)],
  ];
}

/** A policy as the rewrite thread inserts it (the thread adds its record's hash); `rid` null: the next row id. */
function threadRow(policy: CapacityRow, rid: number | null, again = false): RewriteRow {
  return [{ rid, ...toRow(policy) }, storedBody(policy), again];
}

/**
 * The slim columns of one policy. A field the service left out or sent in
 * another form is stored as "not known" (empty text, no figure), so one odd
 * policy is kept, and shown with its unknown fields, instead of failing the
 * whole copy; its full record is kept as it was read.
 */
function toRow(policy: CapacityRow): Record<string, string | number | null> {
  const config = policy.capacityConfiguration;
  const instance = policy.policyInstance;
  const launch = Date.parse(config?.launchDateTime ?? '');
  const end = Date.parse(config?.endDateTime ?? '');
  return {
    cidrId: policy.cidrId,
    createdDate: policy.createdDate ?? '',
    policyName: policy.policyName ?? '',
    policyStatus: policy.policyStatus ?? '',
    instanceType: instance?.instanceType ?? '',
    qty: instance?.qty ?? 0,
    platform: instance?.platformCode ?? '',
    zone: policy.cspRegion?.availabilityZoneId ?? '',
    launchAt: config?.launchDateTime ?? '',
    endAt: config?.endDateTime ?? '',
    launchMs: Number.isNaN(launch) ? null : launch,
    endMs: Number.isNaN(end) ? null : end,
    autoRenewal: config?.autoRenewalEnabled ? 1 : 0,
    ourPrice: policy.pricing?.ourPrice ?? null,
    savings: policy.pricing?.savings ?? null,
    savingsPct: policy.pricing?.savingsPercentage ?? null,
    account: policy.cspAccountName ?? null,
    fee: cardFee(policy),
    bankFee: bankFee(policy),
    search: [policy.cidrId, policy.policyName, instance?.instanceType, policy.cspRegion?.availabilityZoneId, policy.cspAccountName]
      .map((part) => part ?? '')
      .join(SEARCH_PARTS)
      .toLowerCase(),
  };
}
