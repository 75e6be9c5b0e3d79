import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { ActivityEntry, type ActivityAction, type ActivityPolicyKind } from '../../../shared/own-data/activity.js';
import type { OwnRecord, OwnRecordKind } from '../../../shared/own-data/records.js';
import type { OwnDataRecovery, OwnDataStatus } from '../../../shared/own-data/status.js';
import type { UnreadableReason } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { Logger } from '../logging/file-logger.js';
import { adoptOlderFolder } from '../platform/older-owner-folder.js';
import type { Owner } from '../platform/owner.js';
import { transientFailure, unreadableReason as replicaUnreadableReason } from '../replica/replica-failure.js';
import { createDatabaseKey, readDatabaseKey } from '../secrets/database-key.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { OwnDataDb, OwnDataFormatError, type StoredRecord } from './own-data-db.js';
import { LAST_GOOD_FILE, OWN_DATA_FILE, keepAside, ownDataDir, preparePrivateFile, restoreLastGood, writeLastGood } from './own-data-files.js';

export const OWN_DATA_KEY_SERVICE_PREFIX = 'Capacity Desk own data';

/** The keychain entry of an owner's own-data key: one service per environment, one account per user (as the replica's). */
export function ownDataKeyService(profileId: string): string {
  return `${OWN_DATA_KEY_SERVICE_PREFIX} (${profileId})`;
}

/** Said when nothing can keep the key: the reason the secret store gives, or this. */
const NOT_KEPT = 'No system keychain: your own data (activity record, customer book, worklist) is kept in memory for this session only.';

/** Marks the one-time move of the activity record out of the replica, where versions before own data kept it. */
const MIGRATED_ACTIVITY = 'migrated.activity';

export interface OwnDataStoreOptions {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly owner: Owner;
  /** Where an unreadable file, a restore or data kept in memory only is reported (one line, no contents). */
  readonly logger?: Pick<Logger, 'warn'>;
  /**
   * The activity entries (JSON) this owner's replica holds from before own
   * data existed; null when they cannot be read just now (tried again at the
   * next open).
   */
  readonly legacyActivity?: () => Promise<readonly string[] | null>;
}

/** One kind of record, typed by the feature's schema of its body. */
export interface OwnRecords<Body> {
  /** Every record of the kind, by id; a record not in this version's shape is left on disk, not served. */
  list(): Promise<OwnRecord<Body>[]>;
  get(id: string): Promise<OwnRecord<Body> | null>;
  /** Adds or replaces one record (the body is checked against the schema first). */
  put(id: string, body: Body): Promise<OwnRecord<Body>>;
  /**
   * Adds or replaces many records in one commit (an import): all or none, and
   * one copy of the file as its last good state after them, not one a record.
   */
  putMany(entries: ReadonlyArray<readonly [id: string, body: Body]>): Promise<OwnRecord<Body>[]>;
  /** True when there was such a record. */
  delete(id: string): Promise<boolean>;
  /**
   * Which state of the owner's data a `list()` asked right after it reads: it moves with every write asked
   * (from the moment it is asked) and every restore, and differs between owners. What is derived from the
   * records can be kept while it stays the same (the worklist's kept windows).
   */
  version(): string;
}

/** Numbers each store opened, so two owners' versions never meet. */
let storesOpened = 0;

/**
 * The account manager's own data of one owner (activity record, customer
 * book, worklist states, quotes): an encrypted SQLCipher file in
 * `<data>/own/<owner>/`, its key in the keychain under its own name. Never
 * discarded: a file found unreadable is kept aside and its last good state
 * (a checked copy written after every batch of writes) takes its place.
 * Without a keychain (nor the OS's encryption) it lives in memory for this
 * run, and says so in its status; a file already on disk is then left as it
 * is for the next run.
 */
export class OwnDataStore {
  readonly owner: Owner;
  /** The owner's own-data folder; null in memory. */
  readonly dir: string | null;
  readonly #key: Buffer | null;
  readonly #reason: string | undefined;
  readonly #logger: Pick<Logger, 'warn'> | undefined;
  #db: OwnDataDb;
  #recovered: OwnDataRecovery | null;
  /** Every read and write, one after another: a restore or a copy of the file never meets a write half done. */
  #queue: Promise<unknown> = Promise.resolve();
  #lastGoodDue = false;
  #closed = false;
  readonly #opened = (storesOpened += 1);
  /** Writes asked and restores made (`OwnRecords.version`). */
  #changes = 0;

  private constructor(owner: Owner, db: OwnDataDb, place: { dir: string; key: Buffer } | { reason: string }, logger: Pick<Logger, 'warn'> | undefined, recovered: OwnDataRecovery | null) {
    this.owner = owner;
    this.#db = db;
    this.dir = 'dir' in place ? place.dir : null;
    this.#key = 'key' in place ? place.key : null;
    this.#reason = 'reason' in place ? place.reason : undefined;
    this.#logger = logger;
    this.#recovered = recovered;
  }

  /** A store kept in memory only, for this run: nothing of it reaches the disk. */
  static inMemory(owner: Owner, reason: string, logger?: Pick<Logger, 'warn'>): OwnDataStore {
    return new OwnDataStore(owner, OwnDataDb.inMemory(), { reason }, logger, null);
  }

  static async open(options: OwnDataStoreOptions): Promise<OwnDataStore> {
    const { owner, secrets, logger } = options;
    const service = ownDataKeyService(owner.profileId);
    const dir = ownDataDir(options.dataDir, owner);
    const inMemory = () => {
      const reason = secrets.status.reason ? `${secrets.status.reason} ${NOT_KEPT}` : NOT_KEPT;
      logger?.warn('own-data', `own data ${basename(dir)} is kept in memory for this session only: no keychain can keep its key`);
      return OwnDataStore.inMemory(owner, reason, logger);
    };
    let key = await readDatabaseKey(secrets, service, owner.username);
    if (key === 'memory') return inMemory();
    // Own data kept under the folder name of the versions before cust16 (a profile id with a line break) is found.
    const known = key;
    if (known) await adoptOlderFolder(dirname(dir), owner, (older) => readsWithKey(older, known));
    let recovered: OwnDataRecovery | null = null;
    if (!key) {
      const fresh = await createDatabaseKey(secrets, service, owner.username);
      if (fresh === 'memory') return inMemory();
      key = fresh;
      // Files whose key is gone can never be read again; they are kept aside all the same, never deleted.
      recovered = await keepAsideWithoutKey(dir, logger);
    }
    const file = await preparePrivateFile(dir);
    let db: OwnDataDb;
    try {
      db = OwnDataDb.open(file, key);
    } catch (error) {
      const reason = unreadableReason(error, file);
      if (!reason) throw error;
      ({ db, recovered } = await recover(dir, key, reason, logger));
    }
    const store = new OwnDataStore(owner, db, { dir, key }, logger, recovered);
    await store.#migrateActivity(options.legacyActivity);
    await store.#keepLastGood();
    return store;
  }

  /** Whether it outlives this run, why not, and what was restored in this run. */
  status(): OwnDataStatus {
    return {
      persistent: this.dir !== null,
      ...(this.#reason ? { reason: this.#reason } : {}),
      ...(this.#recovered ? { recovered: this.#recovered } : {}),
    };
  }

  get persistent(): boolean {
    return this.dir !== null;
  }

  /** Appends one entry to a policy's activity record. */
  appendActivity(entry: ActivityEntry): Promise<void> {
    return this.appendActivities([entry]);
  }

  /** Appends entries to their policies' records in one transaction (one sync to disk for a quote of many policies): all or none. */
  appendActivities(entries: readonly ActivityEntry[]): Promise<void> {
    const rows = entries.map((entry) => ({ entry, body: JSON.stringify(ActivityEntry.parse(entry)) }));
    return this.#write((db) => db.transaction(() => rows.forEach(({ entry, body }) => db.appendActivity(entry.policyKind, entry.cidrId, body))));
  }

  /** A policy's activity record, newest first. */
  activity(policyKind: ActivityPolicyKind, cidrId: string): Promise<ActivityEntry[]> {
    return this.#read((db) => parseAll(db.activity(policyKind, cidrId), (body) => safeJson(body, ActivityEntry), this.#notRead('activity entry')));
  }

  /** The activity records of many policies of one kind, newest first. */
  activityOfPolicies(policyKind: ActivityPolicyKind, cidrIds: readonly string[]): Promise<ActivityEntry[]> {
    return this.#read((db) => parseAll(db.activityOfPolicies(policyKind, cidrIds), (body) => safeJson(body, ActivityEntry), this.#notRead('activity entry')));
  }

  /** Every entry of one action on one kind of policy, newest first. */
  activityOfAction(policyKind: ActivityPolicyKind, action: ActivityAction): Promise<ActivityEntry[]> {
    return this.#read((db) => parseAll(db.activityOfAction(policyKind, action), (body) => safeJson(body, ActivityEntry), this.#notRead('activity entry')));
  }

  /** The records of one kind, their bodies checked against the feature's schema. */
  records<Schema extends z.ZodType>(kind: OwnRecordKind, schema: Schema): OwnRecords<z.output<Schema>> {
    type Body = z.output<Schema>;
    const toRecord = (stored: StoredRecord): OwnRecord<Body> | null => {
      const body = safeJson(stored.body, schema) as Body | null;
      return body === null ? null : { id: stored.id, body, updatedAt: stored.updatedAt };
    };
    const notRead = this.#notRead(`${kind} record`);
    return {
      list: () => this.#read((db) => parseAll(db.records(kind), toRecord, notRead)),
      get: (id) =>
        this.#read((db) => {
          const stored = db.record(kind, id);
          if (!stored) return null;
          const record = toRecord(stored);
          if (!record) notRead(1);
          return record;
        }),
      put: async (id, body) => {
        const record: OwnRecord<Body> = { id, body: schema.parse(body) as Body, updatedAt: new Date().toISOString() };
        await this.#write((db) => db.putRecord(kind, { id, body: JSON.stringify(record.body), updatedAt: record.updatedAt }));
        return record;
      },
      putMany: async (entries) => {
        const updatedAt = new Date().toISOString();
        const records: OwnRecord<Body>[] = entries.map(([id, body]) => ({ id, body: schema.parse(body) as Body, updatedAt }));
        if (records.length === 0) return records;
        await this.#write((db) => db.transaction(() => records.forEach((record) => db.putRecord(kind, { id: record.id, body: JSON.stringify(record.body), updatedAt }))));
        return records;
      },
      delete: (id) => this.#write((db) => db.deleteRecord(kind, id)),
      version: () => `${this.#opened}:${this.#changes}`,
    };
  }

  /** Resolves once every read and write asked for so far has finished (and its last good state is kept). */
  async settled(): Promise<void> {
    await this.#queue.catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.settled();
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /**
   * Deletes this owner's own data and its key: only when the person asks for
   * it in so many words (a sign-out that wipes the copy does not).
   */
  async wipe(secrets: SecretStore): Promise<void> {
    await this.close();
    // Retried: on Windows a virus scanner or indexer may hold a file of the folder for a moment.
    if (this.dir) await rm(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    await secrets.delete(ownDataKeyService(this.owner.profileId), this.owner.username).catch(() => false);
  }

  #read<T>(use: (db: OwnDataDb) => T): Promise<T> {
    return this.#serial(() => this.#use(use));
  }

  /** A write, then (once the writes queued with it are done) a checked copy of the file as its last good state. */
  async #write<T>(use: (db: OwnDataDb) => T): Promise<T> {
    // Counted as it is asked: a read asked after it (queued after it) sees it.
    this.#changes += 1;
    const answer = await this.#serial(() => this.#use(use));
    if (this.dir && !this.#lastGoodDue) {
      this.#lastGoodDue = true;
      // A copy that fails is logged; the write itself stands, and the previous last good state with it.
      void this.#serial(() => this.#keepLastGood()).catch(() => undefined);
    }
    return answer;
  }

  #serial<T>(work: () => T | Promise<T>): Promise<T> {
    const next = this.#queue.catch(() => undefined).then(() => {
      if (this.#closed) throw new AppFailure({ kind: 'internal', message: 'Your own data was closed (the app is quitting, or it was deleted).' });
      return work();
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Runs against the database; a file found unreadable meanwhile is recovered and the work done again once. */
  async #use<T>(use: (db: OwnDataDb) => T): Promise<T> {
    try {
      return use(this.#db);
    } catch (error) {
      const reason = this.dir && this.#key ? unreadableReason(error, join(this.dir, OWN_DATA_FILE)) : null;
      if (!reason || !this.dir || !this.#key) throw error;
      this.#db.close();
      const { db, recovered } = await recover(this.dir, this.#key, reason, this.#logger);
      this.#db = db;
      this.#changes += 1;
      this.#recovered = recovered;
      return use(this.#db);
    }
  }

  async #keepLastGood(): Promise<void> {
    this.#lastGoodDue = false;
    if (!this.dir || !this.#key) return;
    try {
      await writeLastGood(this.dir, this.#key);
    } catch (error) {
      this.#logger?.warn('own-data', `own data ${basename(this.dir)}: its last good state could not be copied; the previous copy stands`, error);
    }
  }

  /** Moves the activity record out of this owner's replica, once: new entries are written here only. */
  async #migrateActivity(legacy: OwnDataStoreOptions['legacyActivity']): Promise<void> {
    if (!legacy || this.#db.meta(MIGRATED_ACTIVITY) !== null) return;
    const bodies = await legacy().catch(() => null);
    if (bodies === null) return;
    let notRead = 0;
    const entries = bodies.flatMap((body) => {
      const parsed = safeJson(body, ActivityEntry);
      if (!parsed) notRead += 1;
      return parsed ? [parsed] : [];
    });
    this.#db.transaction(() => {
      for (const entry of entries) this.#db.appendActivity(entry.policyKind, entry.cidrId, JSON.stringify(entry));
      this.#db.setMeta(MIGRATED_ACTIVITY, new Date().toISOString());
    });
    if (notRead > 0) this.#logger?.warn('own-data', `${notRead} activity entries of the replica were not in a shape this version reads; they stay in the replica`);
  }

  #notRead(what: string): (count: number) => void {
    return (count) => this.#logger?.warn('own-data', `${count} ${what}(s) not in a shape this version reads are kept on disk, not shown`);
  }
}

/**
 * Why a failure means the file cannot be trusted; null for anything else (a
 * bug, a full disk), which is thrown on as it is. A file held by another
 * program just now says nothing about it: it is left untouched and the person
 * told to try again.
 */
function unreadableReason(error: unknown, file: string): UnreadableReason | null {
  if (error instanceof OwnDataFormatError) return 'incompatible';
  if (transientFailure(error)) {
    throw new AppFailure({ kind: 'internal', message: 'Your own data could not be read right now (another program may be using its file). Nothing was changed; try again in a moment.' });
  }
  return replicaUnreadableReason(error, file);
}

/**
 * The file cannot be read: it is kept aside (never deleted), its last good
 * state takes its place, or, when that cannot be read either, both stay
 * aside and the own data starts empty. One line is logged either way.
 */
async function recover(dir: string, key: Buffer, reason: UnreadableReason, logger: Pick<Logger, 'warn'> | undefined): Promise<{ db: OwnDataDb; recovered: OwnDataRecovery }> {
  const keptAs = await keepAside(dir);
  let restoredFrom: string | null = null;
  const lastGood = join(dir, LAST_GOOD_FILE);
  if (existsSync(lastGood)) {
    try {
      // Read in full before it takes the file's place: a last good state that fails is kept aside as well.
      OwnDataDb.check(lastGood, key);
      restoredFrom = await restoreLastGood(dir);
    } catch (again) {
      if (!unreadableReason(again, lastGood)) throw again;
      await keepAside(dir, LAST_GOOD_FILE);
    }
  }
  const db = OwnDataDb.open(await preparePrivateFile(dir), key);
  logger?.warn(
    'own-data',
    `own data ${basename(dir)} could not be read (${reason}); the file is kept aside as ${keptAs}; ` +
      (restoredFrom ? `its last good state of ${restoredFrom} was restored` : 'no good state of it could be read: it starts empty'),
  );
  return { db, recovered: { reason, keptAs, restoredFrom, detectedAt: new Date().toISOString() } };
}

/** Files of an owner whose key is gone: kept aside under names that say so. */
async function keepAsideWithoutKey(dir: string, logger: Pick<Logger, 'warn'> | undefined): Promise<OwnDataRecovery | null> {
  const names = [OWN_DATA_FILE, LAST_GOOD_FILE].filter((name) => existsSync(join(dir, name)));
  if (names.length === 0) return null;
  const kept: string[] = [];
  for (const name of names) kept.push(await keepAside(dir, name));
  logger?.warn('own-data', `own data ${basename(dir)}: its key is no longer in the keychain; its files are kept aside as ${kept.join(', ')}; it starts empty`);
  return { reason: 'key-missing', keptAs: kept[0] ?? '', restoredFrom: null, detectedAt: new Date().toISOString() };
}

/** Parses each stored body; the ones not in this version's shape are counted and left out. */
function parseAll<In, Out>(stored: readonly In[], parse: (item: In) => Out | null, notRead: (count: number) => void): Out[] {
  let skipped = 0;
  const out = stored.flatMap((item) => {
    const parsed = parse(item);
    if (parsed === null) skipped += 1;
    return parsed === null ? [] : [parsed];
  });
  if (skipped > 0) notRead(skipped);
  return out;
}

/** A stored body in a schema's shape, or null (never a throw: one odd body must not read as a damaged file). */
function safeJson<T>(text: string, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether an own-data folder's file (or its last good state) reads whole with this key; another owner's does not. */
function readsWithKey(dir: string, key: Buffer): boolean {
  for (const name of [OWN_DATA_FILE, LAST_GOOD_FILE]) {
    if (!existsSync(join(dir, name))) continue;
    try {
      OwnDataDb.check(join(dir, name), key);
      return true;
    } catch {
      // Not this owner's, or damaged: the other name may still read.
    }
  }
  return false;
}
