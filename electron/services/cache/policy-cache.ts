import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { UnreadableCopy, UnreadableReason } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { Logger } from '../logging/file-logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { writeFileAtomic } from '../settings/json-file.js';
import { encryptPayload, KEY_BYTES, newCacheKey, openCacheFile } from './cache-crypto.js';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import { CACHE_KINDS, CACHE_SCHEMAS, type CacheEntry, type CacheKind, type CacheValue } from './cache-kinds.js';
import {
  diskFingerprint,
  holdsCopy,
  lastWrittenFromFiles,
  readCopyFacts,
  readUnreadableNote,
  removeUnreadableNote,
  writeCopyFacts,
  writeUnreadableNote,
} from './copy-facts.js';
import { ShardedListStore, type ShardListener } from './sharded-list-store.js';

/** Kinds kept in one file each; the capacity list is large and kept in shards. */
type SingleFileKind = Exclude<CacheKind, 'capacities'>;

export const CACHE_KEY_SERVICE_PREFIX = 'Capacity Desk cache';

export function cacheKeyService(profileId: string): string {
  return `${CACHE_KEY_SERVICE_PREFIX} (${profileId})`;
}

export interface CacheOwner {
  readonly profileId: string;
  readonly username: string;
}

export interface PolicyCacheOptions {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly owner: CacheOwner;
  /** Rows per shard of the capacity list (tests use small shards to exercise many files). */
  readonly shardRows?: number;
  /** Where a copy found unreadable is reported (one line, no contents, no secrets). */
  readonly logger?: Pick<Logger, 'warn'>;
}

/**
 * The offline cache of one user of one profile: encrypted files per kind
 * (the capacity list in shards), each written atomically, each stamped with
 * when it was fetched. The key lives
 * in the OS keychain; without a keychain nothing is written to disk and the
 * cache lasts as long as the process.
 */
export class PolicyCache {
  readonly owner: CacheOwner;
  readonly dir: string;
  /** False when there is no keychain: entries live in memory only. */
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
  readonly #logger: Pick<Logger, 'warn'> | undefined;
  #unreadable: UnreadableCopy | null = null;
  /** The one report of the current unreadable copy, so parallel readers log it once. */
  #declaring: Promise<void> | null = null;
  /** The files on disk as of the last read or write; null when memory has nothing to vouch for. */
  #seen: string | null = null;
  /** Writes of ours under way: the disk is then changing by our hand, not behind our back. */
  #pendingWrites = 0;
  readonly #capacities: ShardedListStore<CapacityPolicy> | null;
  readonly #memory = new Map<CacheKind, CacheEntry<CacheKind>>();
  readonly #writes = new Map<CacheKind, Promise<void>>();

  private constructor(options: PolicyCacheOptions, key: Buffer | null) {
    this.owner = options.owner;
    this.dir = join(options.dataDir, 'cache', ownerFolder(options.owner));
    this.persistent = key !== null;
    this.#key = key;
    this.#logger = options.logger;
    this.#capacities = key ? new ShardedListStore(join(this.dir, 'capacities'), key, (part) => this.#aad(`capacities/${part}`), options.shardRows) : null;
  }

  static async open(options: PolicyCacheOptions): Promise<PolicyCache> {
    if (options.secrets.status.kind === 'memory') return new PolicyCache(options, null);
    const service = cacheKeyService(options.owner.profileId);
    let key = decodeKey(await options.secrets.get(service, options.owner.username));
    // The keychain failed while answering (locked, Secret Service gone): "no key" then means
    // "unknown", and the copy on disk is still good for the next run. Leave it alone.
    if (keptInMemory(options.secrets)) return new PolicyCache(options, null);
    const cache = (fresh: Buffer) => new PolicyCache(options, fresh);
    if (!key) {
      key = newCacheKey();
      const created = cache(key);
      created.#unreadable = await readUnreadableNote(created.dir);
      // A copy whose key is gone can never be read again: the user is told, then it is replaced.
      if (await holdsCopy(created.dir)) await created.#declareUnreadable('key-missing');
      await options.secrets.set(service, options.owner.username, key.toString('base64'));
      return created;
    }
    const opened = cache(key);
    opened.#unreadable = await readUnreadableNote(opened.dir);
    await opened.#removeTornTemps();
    await opened.#capacities?.removeLeftovers();
    return opened;
  }

  /**
   * Set when this owner's copy exists (or existed) but could not be read,
   * until a fresh copy of the capacity list is written.
   */
  get unreadable(): UnreadableCopy | null {
    return this.#unreadable;
  }

  /**
   * Stops trusting memory when the copy's files changed on disk behind this
   * app's back (a flipped byte, a truncation, a restore), so that the next
   * read verifies them again instead of serving what was loaded before.
   */
  async revalidate(): Promise<void> {
    if (!this.#key || this.#seen === null || this.#pendingWrites > 0) return;
    const seen = this.#seen;
    const fingerprint = await diskFingerprint(this.dir);
    // A write of ours that started or finished meanwhile is not a change behind our back.
    if (fingerprint === seen || this.#seen !== seen || this.#pendingWrites > 0) return;
    this.#memory.clear();
    this.#seen = null;
    this.epoch += 1;
  }

  async read<K extends CacheKind>(kind: K): Promise<CacheEntry<K> | null> {
    if (kind === 'capacities') return (await this.readCapacities()) as CacheEntry<K> | null;
    return this.#readSingle(kind as SingleFileKind) as Promise<CacheEntry<K> | null>;
  }

  /**
   * The capacity list; `onRows` sees each shard as it is decrypted, so a
   * first screen can be shown before the whole list is loaded.
   */
  async readCapacities(onRows?: ShardListener<CapacityPolicy>) {
    const remembered = this.#memory.get('capacities') as CacheEntry<'capacities'> | undefined;
    if (remembered || !this.#capacities) return remembered ?? null;
    await this.#writes.get('capacities');
    const epoch = this.epoch;
    const result = await this.#capacities.read(onRows);
    if (result.status === 'missing') return null;
    if (result.status === 'unavailable') throw this.#unavailable();
    if (result.status === 'unreadable') {
      await this.#declareUnreadable(result.problem);
      return null;
    }
    if (epoch !== this.epoch) return null;
    const entry: CacheEntry<'capacities'> = { fetchedAt: result.fetchedAt, value: result.value };
    this.#memory.set('capacities', entry);
    await this.#noteDiskState(epoch);
    return entry;
  }

  async #readSingle<K extends SingleFileKind>(kind: K): Promise<CacheEntry<K> | null> {
    const remembered = this.#memory.get(kind) as CacheEntry<K> | undefined;
    if (remembered || !this.#key) return remembered ?? null;
    await this.#writes.get(kind);
    const epoch = this.epoch;
    const opened = await openCacheFile(this.#key, this.#aad(kind), this.#path(kind));
    if (!opened.ok) {
      if (opened.problem === 'unavailable') throw this.#unavailable();
      if (opened.problem !== 'missing') await this.#declareUnreadable(opened.problem);
      return null;
    }
    const entry = parseEntry(kind, opened.bytes);
    if (!entry) {
      // It opened with our key yet does not parse: another version wrote it.
      await this.#declareUnreadable('incompatible');
      return null;
    }
    if (epoch !== this.epoch) return null;
    this.#memory.set(kind, entry);
    await this.#noteDiskState(epoch);
    return entry;
  }

  /**
   * The file system would not let the copy be read just now (another program
   * holds a file, too many files open): that says nothing about the copy, so it
   * is neither declared unreadable nor touched; this read fails with a message
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
   * The copy cannot be read: from this moment nothing of it is served (memory
   * is dropped and the epoch moves on before anything else), the user can be
   * told what was lost, and one line is logged.
   *
   * Its files are then deleted rather than kept aside: they can never be
   * opened by this app (so they have no use for diagnosis that the reason and
   * the logged facts do not cover), keeping them would report the same copy
   * again at every start, and a copy that failed authentication may have been
   * tampered with. The note that replaces them holds only the facts shown to
   * the user, and stays until a fresh copy is written.
   */
  #declareUnreadable(reason: UnreadableReason): Promise<void> {
    this.#memory.clear();
    this.#seen = null;
    this.epoch += 1;
    this.#declaring ??= this.#recordUnreadable(reason);
    return this.#declaring;
  }

  async #recordUnreadable(reason: UnreadableReason): Promise<void> {
    // A write under way must not land in the folder after it is emptied.
    await Promise.allSettled(this.#writes.values());
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
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeUnreadableNote(this.dir, note);
  }

  /** Remembers the files on disk as matching memory, unless trust moved on while reading. */
  async #noteDiskState(epoch: number): Promise<void> {
    const fingerprint = await diskFingerprint(this.dir);
    if (epoch === this.epoch) this.#seen = fingerprint;
  }

  /** Replaces one kind; writes of the same kind are serialised. */
  async write<K extends CacheKind>(kind: K, value: CacheValue<K>, fetchedAt: Date = new Date()): Promise<void> {
    const entry: CacheEntry<K> = { fetchedAt: fetchedAt.toISOString(), value };
    this.#memory.set(kind, entry);
    if (!this.#key) return;
    const key = this.#key;
    const previous = this.#writes.get(kind) ?? Promise.resolve();
    const capacities = this.#capacities;
    this.#pendingWrites += 1;
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
        if (kind === 'capacities' && capacities) {
          const rows = value as CapacityPolicy[];
          await capacities.write(rows, entry.fetchedAt);
          // Written after the commit: a crash in between leaves facts one copy old, which only words a message.
          await writeCopyFacts(this.dir, { writtenAt: new Date().toISOString(), capacities: rows.length });
          // A fresh copy of the list replaces whatever was found unreadable before.
          await removeUnreadableNote(this.dir);
          this.#unreadable = null;
          this.#declaring = null;
        } else {
          const payload = Buffer.from(JSON.stringify(entry), 'utf8');
          await writeFileAtomic(this.#path(kind), encryptPayload(key, this.#aad(kind), payload));
        }
        await this.#noteDiskState(this.epoch);
      })
      .finally(() => {
        this.#pendingWrites -= 1;
      });
    this.#writes.set(kind, next);
    await next;
  }

  /** Resolves when every write under way has landed (or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#writes.values());
  }

  /** Which kinds are cached, and when each was fetched. */
  async summary(): Promise<Partial<Record<CacheKind, string>>> {
    const result: Partial<Record<CacheKind, string>> = {};
    for (const kind of CACHE_KINDS) {
      const entry = await this.read(kind);
      if (entry) result[kind] = entry.fetchedAt;
    }
    return result;
  }

  async wipe(): Promise<void> {
    await Promise.allSettled(this.#writes.values());
    this.#memory.clear();
    this.#seen = null;
    this.epoch += 1;
    await rm(this.dir, { recursive: true, force: true });
    // Wiped by the user's choice: there is nothing left to report either.
    this.#unreadable = null;
    this.#declaring = null;
  }

  #path(kind: CacheKind): string {
    return join(this.dir, `${kind}.bin`);
  }

  #aad(kind: string): string {
    return `capacity-desk-cache/v1\n${this.owner.profileId}\n${this.owner.username}\n${kind}`;
  }

  async #removeTornTemps(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    await Promise.all(names.filter((n) => n.endsWith('.tmp')).map((n) => rm(join(this.dir, n), { force: true })));
  }
}

function parseEntry<K extends SingleFileKind>(kind: K, plaintext: Buffer): CacheEntry<K> | null {
  let raw: unknown;
  try {
    raw = JSON.parse(plaintext.toString('utf8'));
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { fetchedAt, value } = raw as { fetchedAt?: unknown; value?: unknown };
  if (typeof fetchedAt !== 'string' || Number.isNaN(Date.parse(fetchedAt))) return null;
  const parsed = CACHE_SCHEMAS[kind].safeParse(value);
  return parsed.success ? { fetchedAt, value: parsed.data as CacheValue<K> } : null;
}

/** Read afresh each time: a resilient store falls back to memory in the middle of a call. */
function keptInMemory(secrets: SecretStore): boolean {
  return secrets.status.kind === 'memory';
}

function decodeKey(text: string | null): Buffer | null {
  if (!text) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

/** The folder name does not reveal the username. */
function ownerFolder(owner: CacheOwner): string {
  return createHash('sha256').update(`${owner.profileId}\n${owner.username}`).digest('hex').slice(0, 24);
}
