import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecretStore } from '../secrets/secret-store.js';
import { writeFileAtomic } from '../settings/json-file.js';
import { decryptFile, encryptPayload, KEY_BYTES, newCacheKey } from './cache-crypto.js';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import { CACHE_KINDS, CACHE_SCHEMAS, type CacheEntry, type CacheKind, type CacheValue } from './cache-kinds.js';
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
  /** Files that could not be opened with the key (wrong key, tampering) and were discarded. */
  discarded = 0;
  readonly #key: Buffer | null;
  readonly #capacities: ShardedListStore<CapacityPolicy> | null;
  readonly #memory = new Map<CacheKind, CacheEntry<CacheKind>>();
  readonly #writes = new Map<CacheKind, Promise<void>>();

  private constructor(options: PolicyCacheOptions, key: Buffer | null) {
    this.owner = options.owner;
    this.dir = join(options.dataDir, 'cache', ownerFolder(options.owner));
    this.persistent = key !== null;
    this.#key = key;
    this.#capacities = key ? new ShardedListStore(join(this.dir, 'capacities'), key, (part) => this.#aad(`capacities/${part}`), options.shardRows) : null;
  }

  static async open(options: PolicyCacheOptions): Promise<PolicyCache> {
    if (options.secrets.status.kind === 'memory') return new PolicyCache(options, null);
    const service = cacheKeyService(options.owner.profileId);
    let key = decodeKey(await options.secrets.get(service, options.owner.username));
    const cache = (fresh: Buffer) => new PolicyCache(options, fresh);
    if (!key) {
      // A cache without its key can never be read again: start over.
      key = newCacheKey();
      const created = cache(key);
      await rm(created.dir, { recursive: true, force: true });
      await options.secrets.set(service, options.owner.username, key.toString('base64'));
      return created;
    }
    const opened = cache(key);
    await opened.#removeTornTemps();
    await opened.#capacities?.removeLeftovers();
    return opened;
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
    const result = await this.#capacities.read(onRows);
    if (result.status === 'missing') return null;
    if (result.status === 'unreadable') {
      this.discarded += 1;
      await this.#capacities.clear();
      return null;
    }
    const entry: CacheEntry<'capacities'> = { fetchedAt: result.fetchedAt, value: result.value };
    this.#memory.set('capacities', entry);
    return entry;
  }

  async #readSingle<K extends SingleFileKind>(kind: K): Promise<CacheEntry<K> | null> {
    const remembered = this.#memory.get(kind) as CacheEntry<K> | undefined;
    if (remembered || !this.#key) return remembered ?? null;
    await this.#writes.get(kind);
    if (!(await exists(this.#path(kind)))) return null;
    const plaintext = await decryptFile(this.#key, this.#aad(kind), this.#path(kind));
    const entry = plaintext ? parseEntry(kind, plaintext) : null;
    if (!entry) {
      this.discarded += 1;
      await rm(this.#path(kind), { force: true });
      return null;
    }
    this.#memory.set(kind, entry);
    return entry;
  }

  /** Replaces one kind; writes of the same kind are serialised. */
  async write<K extends CacheKind>(kind: K, value: CacheValue<K>, fetchedAt: Date = new Date()): Promise<void> {
    const entry: CacheEntry<K> = { fetchedAt: fetchedAt.toISOString(), value };
    this.#memory.set(kind, entry);
    if (!this.#key) return;
    const key = this.#key;
    const previous = this.#writes.get(kind) ?? Promise.resolve();
    const capacities = this.#capacities;
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
        if (kind === 'capacities' && capacities) {
          await capacities.write(value as CapacityPolicy[], entry.fetchedAt);
          return;
        }
        const payload = Buffer.from(JSON.stringify(entry), 'utf8');
        await writeFileAtomic(this.#path(kind), encryptPayload(key, this.#aad(kind), payload));
      });
    this.#writes.set(kind, next);
    await next;
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
    await rm(this.dir, { recursive: true, force: true });
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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
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
