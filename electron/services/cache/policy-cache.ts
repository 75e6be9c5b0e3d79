import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import type { ParsedLocalCapacityQuery, UnreadableCopy, UnreadableReason } from '../../../shared/ipc/offline.js';
import { dictionary } from '../../../shared/records.js';
import type { Logger } from '../logging/file-logger.js';
import { CapacityReplicaDb, verifyReplicaFile, type ReplicaDbOptions, type StoredDocument, type UpcomingCapacity } from '../replica/capacity-replica-db.js';
import { CapacityReplica } from '../replica/capacity-replica.js';
import { transientFailure, unreadableReason } from '../replica/replica-failure.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { createDatabaseKey, readDatabaseKey } from '../secrets/database-key.js';
import { ownerFolder, type Owner } from '../platform/owner.js';
import {
  CACHE_KINDS,
  CACHE_SCHEMAS,
  RECORD_SCHEMAS,
  type CacheEntry,
  type CacheKind,
  type CacheValue,
  type RecordKind,
  type RecordValue,
} from './cache-kinds.js';
import {
  diskFingerprint,
  holdsCopy,
  holdsOlderFormat,
  lastWrittenFromFiles,
  readCopyFacts,
  readUnreadableNote,
  removeUnreadableNote,
  REPLICA_FILE,
  writeCopyFacts,
  writeUnreadableNote,
} from './copy-facts.js';

export const CACHE_KEY_SERVICE_PREFIX = 'Capacity Desk cache';
/** The id of the one record of linked accounts. */
const ACCOUNTS_ID = 'all';

export function cacheKeyService(profileId: string): string {
  return `${CACHE_KEY_SERVICE_PREFIX} (${profileId})`;
}

export type CacheOwner = Owner;

export interface PolicyCacheOptions {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly owner: CacheOwner;
  /** Where a copy found unreadable is reported (one line, no contents, no secrets). */
  readonly logger?: Pick<Logger, 'warn'>;
  /** How long after opening a copy its pages are all read (not to compete with the first screen). */
  readonly verifyDelayMs?: number;
}

/** A start's first screens come first; the check of every page follows them. */
const VERIFY_DELAY_MS = 1_500;

type Query = ParsedLocalCapacityQuery;

/** One window of the capacity list as the replica answers it. */
export interface CapacityAnswer {
  readonly rows: CapacityRow[];
  readonly total: number;
  readonly fetchedAt: string;
  /** True while search and sort are answered by SQL because the slim rows are still loading. */
  readonly loading: boolean;
  /** Items the refresh that wrote the list could not keep. */
  readonly leftOut: SkippedItem[];
}

/**
 * The local replica of one user of one profile: one encrypted SQLite database
 * (SQLCipher, `replica.db` in the owner's folder) holding the capacity list as
 * rows and every other kind as records, each stamped with when it was
 * fetched. The key lives in the OS keychain; without a keychain the same
 * database lives in this process's memory and nothing is written to disk.
 *
 * A copy that cannot be read (key gone, a page failing authentication, a file
 * cut short or written by another version) is reported once, never served,
 * and replaced by the next sync.
 */
export class PolicyCache {
  readonly owner: CacheOwner;
  readonly dir: string;
  /** False when there is no keychain: the database is in memory only. */
  readonly persistent: boolean;
  /** Copies found unreadable (and removed) since this cache was opened. */
  discarded = 0;
  /**
   * Bumped whenever what is held in memory stops being trusted (the copy was
   * found unreadable, or its files changed on disk): anything derived from an
   * older epoch must be dropped, and a read that began in one is not served.
   */
  epoch = 0;
  readonly #key: Buffer | null;
  readonly #file: string | null;
  readonly #logger: Pick<Logger, 'warn'> | undefined;
  readonly #verifyDelayMs: number;
  #replica: CapacityReplica | null = null;
  #unreadable: UnreadableCopy | null = null;
  /** The one report of the current unreadable copy, so parallel readers log it once. */
  #declaring: Promise<void> | null = null;
  /** The files on disk as of the last read or write; null when memory has nothing to vouch for. */
  #seen: string | null = null;
  /** Writes of ours under way: the disk is then changing by our hand, not behind our back. */
  #pendingWrites = 0;
  /** Checkpoints under way on the replica's thread: the files change by our hand until they settle. */
  readonly #checkpoints = new Set<Promise<unknown>>();
  /** Every write, one after another: a database has one writer. */
  #queue: Promise<void> = Promise.resolve();
  /** The background read of every page of a file just opened. */
  #verifying: Promise<void> = Promise.resolve();

  private constructor(options: PolicyCacheOptions, key: Buffer | null) {
    this.owner = options.owner;
    this.dir = join(options.dataDir, 'cache', ownerFolder(options.owner));
    this.persistent = key !== null;
    this.#key = key;
    this.#file = key ? join(this.dir, REPLICA_FILE) : null;
    this.#logger = options.logger;
    this.#verifyDelayMs = options.verifyDelayMs ?? VERIFY_DELAY_MS;
    if (!key) this.#replica = new CapacityReplica(CapacityReplicaDb.inMemory());
  }

  static async open(options: PolicyCacheOptions): Promise<PolicyCache> {
    const service = cacheKeyService(options.owner.profileId);
    const key = await readDatabaseKey(options.secrets, service, options.owner.username);
    // No keychain, or it failed while answering (locked, Secret Service gone): "no key" then means
    // "unknown", and the copy on disk is still good for the next run. Leave it alone.
    if (key === 'memory') return new PolicyCache(options, null);
    if (!key) {
      const fresh = await createDatabaseKey(options.secrets, service, options.owner.username);
      if (fresh === 'memory') return new PolicyCache(options, null);
      const created = new PolicyCache(options, fresh);
      created.#unreadable = await readUnreadableNote(created.dir);
      // A copy whose key is gone can never be read again: the user is told, then it is replaced.
      if (await holdsCopy(created.dir)) await created.#declareUnreadable('key-missing');
      return created;
    }
    const opened = new PolicyCache(options, key);
    opened.#unreadable = await readUnreadableNote(opened.dir);
    await removeTornTemps(opened.dir);
    // The encrypted files of the version before the database are not migrated: see docs/local-first.md.
    if (await holdsOlderFormat(opened.dir)) await opened.#declareUnreadable('incompatible');
    // A file held by another program just now is opened again by the first read, which then says why.
    await opened.#openExisting().catch((error: unknown) => {
      if (!(error instanceof AppFailure)) throw error;
    });
    return opened;
  }

  /**
   * Set when this owner's copy exists (or existed) but could not be read,
   * until a fresh copy of the capacity list is written.
   */
  get unreadable(): UnreadableCopy | null {
    return this.#unreadable;
  }

  /** Resolves when every write under way has landed (or failed). */
  async settled(): Promise<void> {
    await this.#queue.catch(() => undefined);
    await Promise.all(this.#checkpoints);
  }

  /** Resolves once the pages of the file opened last have all been read (or the copy declared unreadable). */
  verified(): Promise<void> {
    return this.#verifying;
  }

  /**
   * Stops trusting what is open when the copy's files changed on disk behind
   * this app's back (a flipped byte, a truncation, a restore): the database is
   * opened again, so the next read authenticates its pages afresh.
   */
  async revalidate(): Promise<void> {
    if (!this.#key || this.#seen === null || this.#pendingWrites > 0) return;
    const seen = this.#seen;
    const fingerprint = await diskFingerprint(this.dir);
    // A write of ours that started or finished meanwhile is not a change behind our back.
    if (fingerprint === seen || this.#seen !== seen || this.#pendingWrites > 0) return;
    this.#closeReplica();
    this.#seen = null;
    this.epoch += 1;
    // Changed by something other than this app: every page is read before anything more is served from it.
    await this.#openExisting(0);
    await this.#verifying;
  }

  async read<K extends CacheKind>(kind: K): Promise<CacheEntry<K> | null> {
    if (kind === 'capacities') return (await this.readCapacities()) as CacheEntry<K> | null;
    return this.#reading((replica) => {
      const db = replica.db;
      const fetchedAt = db.meta(`${kind}.fetchedAt`);
      if (!fetchedAt) return null;
      const docs = db.documents(kind);
      const raw =
        kind === 'accounts'
          ? docs.length === 1 ? JSON.parse((docs[0] as StoredDocument).body) : undefined
          : dictionary(docs.map((doc) => [doc.id, { fetchedAt: doc.fetchedAt, value: JSON.parse(doc.body) as unknown }] as const));
      const parsed = CACHE_SCHEMAS[kind].safeParse(raw);
      if (!parsed.success) return incompatible;
      return { fetchedAt, value: parsed.data as CacheValue<K> };
    });
  }

  /** The whole capacity list, as stored (newest first after a sync). Views use queryCapacities instead. */
  async readCapacities(): Promise<CacheEntry<'capacities'> | null> {
    return this.#reading((replica) => {
      const fetchedAt = replica.fetchedAt;
      return fetchedAt ? { fetchedAt, value: replica.db.allBodies() } : null;
    });
  }

  /** One record of a kind kept per id, with when it was fetched; null when not kept. */
  async readRecord<K extends RecordKind>(kind: K, id: string): Promise<{ fetchedAt: string; value: RecordValue<K> } | null> {
    return this.#reading((replica) => {
      const doc = replica.db.document(kind, id);
      if (!doc) return null;
      const value: unknown = JSON.parse(doc.body);
      // Checked against this version's shape, then handed back as written (a view may carry more than the shape names).
      return RECORD_SCHEMAS[kind].safeParse(value).success ? { fetchedAt: doc.fetchedAt, value: value as RecordValue<K> } : incompatible;
    });
  }

  /** The ids kept of a kind (the details a sync refreshes, the customers whose DR lists it reads again). */
  async recordIds(kind: RecordKind): Promise<string[]> {
    return (await this.#reading((replica) => replica.db.documentIds(kind))) ?? [];
  }

  /** Adds or replaces one record; the other records of the kind are not rewritten. */
  async writeRecord<K extends RecordKind>(kind: K, id: string, value: RecordValue<K>, fetchedAt: Date = new Date()): Promise<void> {
    const body = JSON.stringify(value);
    await this.#write((replica) => replica.db.putDocument(kind, { id, fetchedAt: fetchedAt.toISOString(), body }));
  }

  /**
   * The activity entries (JSON) versions before own data kept in this copy,
   * for their one move into own data; empty when there are none or the copy
   * cannot be read (then they are gone with it).
   */
  async legacyActivity(): Promise<string[]> {
    return (await this.#reading((replica) => replica.db.legacyActivity())) ?? [];
  }

  /** A window of the capacity list, searched and sorted; null when there is no list. */
  async queryCapacities(query: Query): Promise<CapacityAnswer | null> {
    return this.#reading((replica) => {
      const fetchedAt = replica.fetchedAt;
      if (!fetchedAt) return null;
      const loading = !replica.loaded;
      // Its failure is met again (and reported) by the next read; nothing waits for it here.
      if (loading) void this.#loadInBackground(replica).catch(() => undefined);
      return { ...replica.query(query), fetchedAt, loading, leftOut: replica.db.leftOut };
    });
  }

  async capacityCount(): Promise<number> {
    return (await this.#reading((replica) => (replica.fetchedAt ? replica.count : 0))) ?? 0;
  }

  async capacitiesFetchedAt(): Promise<string | null> {
    return this.#reading((replica) => replica.fetchedAt);
  }

  /**
   * The policies launching or ending in (fromMs, toMs] and the whole records of
   * those `pick` chooses, in one read (so both come from the same copy); null
   * when there is no list.
   */
  async upcomingCapacities(
    fromMs: number,
    toMs: number,
    pick: (upcoming: readonly UpcomingCapacity[]) => readonly number[],
  ): Promise<{ fetchedAt: string; upcoming: UpcomingCapacity[]; picked: CapacityRow[] } | null> {
    return this.#reading((replica) => {
      const fetchedAt = replica.fetchedAt;
      if (!fetchedAt) return null;
      const upcoming = replica.db.upcoming(fromMs, toMs);
      return { fetchedAt, upcoming, picked: replica.db.bodies(pick(upcoming)) };
    });
  }

  /** The overview's figures, counted by the database (the slim rows are not waited for); null when there is no list. */
  async capacityOverview(asOf: Date) {
    const replica = await this.#readable();
    if (!replica) return null;
    return this.#reading((current) => (current === replica && current.fetchedAt ? current.overview(asOf) : null));
  }

  /** Each account's active policies, spend and savings, for the overview by customer; null when the copy holds no list. */
  async capacityTotalsByAccount() {
    const replica = await this.#readable();
    if (!replica) return null;
    await this.#loadInBackground(replica);
    return this.#reading((current) => (current === replica && current.fetchedAt ? current.totalsByAccount() : null));
  }

  /**
   * Write-through of one policy the service just answered with: one row, into
   * a copy that holds the list (a copy not yet synced stays empty: its age would
   * lie). Returns whether it was written.
   */
  async upsertCapacity(policy: CapacityPolicy): Promise<boolean> {
    let written = false;
    await this.#write((replica) => {
      if (!replica.fetchedAt) return;
      replica.upsert(policy);
      written = true;
    }, false);
    return written;
  }

  /** Loads the slim rows of the list in the background, so search and sort answer from memory. */
  async warm(): Promise<void> {
    const replica = await this.#readable();
    if (replica) await this.#loadInBackground(replica);
  }

  /**
   * A full refresh of the capacity list in a single commit, with the items it
   * could not keep (no id), so every view can say what was left out.
   */
  async writeCapacities(rows: readonly CapacityRow[], fetchedAt: Date = new Date(), leftOut: readonly SkippedItem[] = []): Promise<void> {
    const at = fetchedAt.toISOString();
    await this.#write(async (replica) => {
      await replica.replaceAll(rows, at, leftOut);
      if (!this.#file) return;
      // Written after the commit: a crash in between leaves facts one copy old, which only words a message.
      await writeCopyFacts(this.dir, { writtenAt: new Date().toISOString(), capacities: rows.length });
      // A fresh copy of the list replaces whatever was found unreadable before.
      await removeUnreadableNote(this.dir);
      this.#unreadable = null;
      this.#declaring = null;
    });
  }

  /** Replaces one kind in a single commit. */
  async write<K extends CacheKind>(kind: K, value: CacheValue<K>, fetchedAt: Date = new Date()): Promise<void> {
    if (kind === 'capacities') return this.writeCapacities(value as CacheValue<'capacities'>, fetchedAt);
    const at = fetchedAt.toISOString();
    const documents: StoredDocument[] =
      kind === 'accounts'
        ? [{ id: ACCOUNTS_ID, fetchedAt: at, body: JSON.stringify(value) }]
        : Object.entries(value as Record<string, { fetchedAt: string; value: unknown }>).map(([id, entry]) => ({
            id,
            fetchedAt: entry.fetchedAt,
            body: JSON.stringify(entry.value),
          }));
    await this.#write((replica) => replica.db.replaceDocuments(kind, documents, at));
  }

  /** Which kinds are cached, and when each was fetched. */
  async summary(): Promise<Partial<Record<CacheKind, string>>> {
    const answer = await this.#reading((replica) => {
      const result: Partial<Record<CacheKind, string>> = {};
      for (const kind of CACHE_KINDS) {
        const at = replica.db.meta(`${kind}.fetchedAt`);
        if (at) result[kind] = at;
      }
      return result;
    });
    return answer ?? {};
  }

  async wipe(): Promise<void> {
    await this.#queue.catch(() => undefined);
    this.#closeReplica();
    this.#seen = null;
    this.epoch += 1;
    if (this.#file) await rm(this.dir, { recursive: true, force: true });
    else {
      this.#replica?.close();
      this.#replica = new CapacityReplica(CapacityReplicaDb.inMemory());
    }
    // Wiped by the user's choice: there is nothing left to report either.
    this.#unreadable = null;
    this.#declaring = null;
  }

  /** Closes the database (the app quits, or another user signs in); in memory, its content goes with it. */
  async close(): Promise<void> {
    await this.#queue.catch(() => undefined);
    this.epoch += 1;
    const replica = this.#replica;
    this.#replica = null;
    replica?.close();
  }

  /** The open replica for a read: opened from disk if need be; in memory, after a full refresh under way. */
  async #readable(): Promise<CapacityReplica | null> {
    if (!this.#file) {
      // One connection in memory: a refresh's rows are visible to it before they commit.
      while (this.#replica?.db.writing) await this.#queue.catch(() => undefined);
      return this.#replica;
    }
    if (!this.#replica) await this.#openExisting();
    return this.#replica;
  }

  /**
   * Runs a read against the replica. A read that meets a damaged page (SQLCipher
   * authenticates each one) or a file of another version declares the copy
   * unreadable and answers null; so does one whose epoch moved on meanwhile.
   */
  async #reading<T>(use: (replica: CapacityReplica) => T | typeof incompatible): Promise<T | null> {
    const replica = await this.#readable();
    if (!replica) return null;
    const epoch = this.epoch;
    let answer: T | typeof incompatible;
    try {
      answer = use(replica);
    } catch (error) {
      await this.#failed(error);
      return null;
    }
    if (answer === incompatible) {
      // It opened with our key yet does not parse: another version wrote it.
      await this.#declareUnreadable('incompatible');
      return null;
    }
    if (epoch !== this.epoch || replica !== this.#replica) return null;
    if (this.#file && this.#seen === null && this.#pendingWrites === 0) await this.#noteDiskState(epoch);
    return answer;
  }

  /**
   * Runs a write after the ones before it. A copy found damaged while writing
   * is declared unreadable and the write is done again on a fresh database
   * (`retry`), so a sync replaces a damaged copy.
   */
  #write(use: (replica: CapacityReplica) => void | Promise<void>, retry = true): Promise<void> {
    this.#pendingWrites += 1;
    const run = async () => {
      for (let attempt = 0; ; attempt += 1) {
        const replica = await this.#writable();
        try {
          await use(replica);
          break;
        } catch (error) {
          if (!unreadableReason(error, this.#file) || attempt > 0) throw error;
          await this.#failed(error);
          if (!retry) return;
        }
      }
      await this.#noteDiskState(this.epoch);
    };
    const next = this.#queue.catch(() => undefined).then(run);
    this.#queue = next.finally(() => {
      this.#pendingWrites -= 1;
    });
    return this.#queue;
  }

  async #writable(): Promise<CapacityReplica> {
    if (this.#replica) return this.#replica;
    const file = this.#file;
    const key = this.#key;
    if (!file || !key) {
      this.#replica = new CapacityReplica(CapacityReplicaDb.inMemory());
      return this.#replica;
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.#replica = new CapacityReplica(CapacityReplicaDb.open(file, key, this.#replicaOptions()));
    return this.#replica;
  }

  /** Opens the file on disk, if there is one, and reads all its pages in the background after `delayMs`. */
  async #openExisting(delayMs = this.#verifyDelayMs): Promise<void> {
    if (!this.#file || !this.#key || this.#replica || !existsSync(this.#file)) return;
    const file = this.#file;
    const key = this.#key;
    try {
      this.#replica = new CapacityReplica(CapacityReplicaDb.open(file, key, this.#replicaOptions()));
    } catch (error) {
      await this.#failed(error);
      return;
    }
    const epoch = this.epoch;
    const opened = this.#replica;
    const stale = () => epoch !== this.epoch || opened !== this.#replica;
    this.#verifying = delay(delayMs)
      .then(() => (stale() ? undefined : verifyReplicaFile(file, key, stale)))
      .catch((error: unknown) => (epoch === this.epoch ? this.#failed(error) : undefined))
      // A check the file system refused for a moment is simply not done this time (it was logged).
      .catch(() => undefined);
  }

  #loadInBackground(replica: CapacityReplica): Promise<void> {
    return replica.loadInBackground().catch((error: unknown) => (replica === this.#replica ? this.#failed(error) : undefined));
  }

  /** An error of a read or write: the copy is declared unreadable when it says the file cannot be trusted; anything else is thrown on. */
  async #failed(error: unknown): Promise<void> {
    if (transientFailure(error)) throw this.#unavailable();
    const reason = unreadableReason(error, this.#file);
    if (!reason) throw error;
    await this.#declareUnreadable(reason);
  }

  /**
   * The file system would not let the copy be read just now (another program
   * holds it, too many files open): that says nothing about the copy, so it is
   * neither declared unreadable nor touched; this read fails with a message
   * that says so, and the next one tries again.
   */
  #unavailable(): AppFailure {
    this.#logger?.warn('offline-cache', `offline copy ${basename(this.dir)} could not be read right now (the file system refused for a moment); it is left as it is`);
    return new AppFailure({
      kind: 'internal',
      message: 'Your offline copy could not be read right now (another program may be using its files). Nothing was changed; try again in a moment.',
    });
  }

  /**
   * The copy cannot be read: from this moment nothing of it is served (the
   * database is closed and the epoch moves on before anything else), the user
   * can be told what was lost, and one line is logged.
   *
   * Its files are then deleted rather than kept aside: they can never be
   * opened by this app (so they have no use for diagnosis that the reason and
   * the logged facts do not cover), keeping them would report the same copy
   * again at every start, and a copy that failed authentication may have been
   * tampered with. The note that replaces them holds only the facts shown to
   * the user, and stays until a fresh copy is written.
   */
  #declareUnreadable(reason: UnreadableReason): Promise<void> {
    this.#closeReplica();
    this.#seen = null;
    this.epoch += 1;
    this.#declaring ??= this.#recordUnreadable(reason);
    return this.#declaring;
  }

  async #recordUnreadable(reason: UnreadableReason): Promise<void> {
    const facts = await readCopyFacts(this.dir);
    const note: UnreadableCopy = {
      state: 'unreadable',
      reason,
      lastWrittenAt: facts?.writtenAt ?? (await lastWrittenFromFiles(this.dir)),
      recordsLost: facts?.capacities ?? null,
      detectedAt: new Date().toISOString(),
    };
    this.#unreadable = note;
    this.discarded += 1;
    this.#logger?.warn(
      'offline-cache',
      `offline copy ${basename(this.dir)} could not be read (${reason}); it held ${note.recordsLost ?? 'an unknown number of'} policies, ` +
        `last written ${note.lastWrittenAt ?? 'at an unknown time'}; nothing from it is served, its files are removed, a fresh sync is needed`,
    );
    this.#closeReplica();
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeUnreadableNote(this.dir, note);
  }

  #closeReplica(): void {
    const replica = this.#replica;
    this.#replica = this.#file ? null : replica;
    if (this.#file && replica) replica.close();
  }

  #replicaOptions(): ReplicaDbOptions {
    return {
      warn: (message) => (this.#logger ? this.#logger.warn('offline-cache', message) : console.warn(message)),
      // Counted as a write of ours until it settles, so the disk check does not take it for a change behind our back.
      onCheckpoint: (done) => {
        this.#pendingWrites += 1;
        const epoch = this.epoch;
        const tracked = done.then(() => this.#noteDiskState(epoch)).finally(() => {
          this.#pendingWrites -= 1;
          this.#checkpoints.delete(tracked);
        });
        this.#checkpoints.add(tracked);
      },
    };
  }

  /** Remembers the files on disk as matching what is open, unless trust moved on meanwhile. */
  async #noteDiskState(epoch: number): Promise<void> {
    if (!this.#file) return;
    const fingerprint = await diskFingerprint(this.dir);
    if (epoch === this.epoch) this.#seen = fingerprint;
  }
}

/** Temp files a write of the plain facts or the note left when the app was killed mid-write. */
async function removeTornTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith('.tmp')).map((name) => rm(join(dir, name), { force: true })));
}

/** A pause that does not keep the process alive. */
function delay(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** What a read answers when the stored value is not in this version's shape. */
const incompatible = Symbol('incompatible');
