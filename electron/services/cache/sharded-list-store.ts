import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { syncDirectory, writeFileAtomic } from '../settings/json-file.js';
import { errorCode, retryTransient } from '../settings/transient-fs.js';
import { encryptPayload, openCacheFile, type OpenProblem } from './cache-crypto.js';

/** Rows per shard: each parses in tens of milliseconds, so the main process never stalls long. */
export const SHARD_ROWS = 10_000;
const MANIFEST = 'manifest.bin';

interface Manifest {
  readonly generation: string;
  readonly fetchedAt: string;
  readonly count: number;
  readonly shards: number;
  /** Each shard's file size, so a shard cut short is told from a damaged one (absent in older copies). */
  readonly sizes?: readonly number[];
}

/** Progress of a read: `rows` is everything loaded so far (do not keep a reference past the call). */
export type ShardListener<T> = (progress: { rows: readonly T[]; loaded: number; total: number; fetchedAt: string }) => void;

export type ShardedRead<T> =
  | { readonly status: 'missing' }
  /** The file system would not let it be read right now: nothing is judged, nothing removed. */
  | { readonly status: 'unavailable' }
  | { readonly status: 'unreadable'; readonly problem: Exclude<OpenProblem, 'missing' | 'unavailable'> }
  | { readonly status: 'ok'; readonly fetchedAt: string; readonly value: T[] };

/**
 * A large list kept as encrypted shards in a generation folder, committed by
 * atomically replacing an encrypted manifest that names the generation. A
 * crash at any moment leaves the manifest naming either the old complete
 * generation or the new one; reading yields to the event loop between shards
 * and can hand out the first rows before the rest are loaded.
 */
export class ShardedListStore<T> {
  constructor(
    private readonly dir: string,
    private readonly key: Buffer,
    /** Authenticated data binding each file to its owner and place. */
    private readonly aad: (part: string) => string,
    private readonly shardRows: number = SHARD_ROWS,
  ) {}

  async write(items: readonly T[], fetchedAt: string): Promise<void> {
    const generation = randomBytes(8).toString('hex');
    const genDir = join(this.dir, generation);
    await mkdir(genDir, { recursive: true, mode: 0o700 });
    const shards = Math.max(1, Math.ceil(items.length / this.shardRows));
    const sizes: number[] = [];
    for (let i = 0; i < shards; i += 1) {
      const rows = items.slice(i * this.shardRows, (i + 1) * this.shardRows);
      const payload = Buffer.from(JSON.stringify(rows), 'utf8');
      const file = encryptPayload(this.key, this.aad(`${generation}/${i}`), payload);
      await writeFileAtomic(join(genDir, `${i}.bin`), file);
      sizes.push(file.length);
      await yieldToEventLoop();
    }
    await syncDirectory(genDir);
    const manifest: Manifest = { generation, fetchedAt, count: items.length, shards, sizes };
    await writeFileAtomic(
      join(this.dir, MANIFEST),
      encryptPayload(this.key, this.aad(MANIFEST), Buffer.from(JSON.stringify(manifest), 'utf8')),
    );
    await this.removeLeftovers(generation);
  }

  /** Reads every shard in order; `onRows` sees each shard as it arrives. */
  async read(onRows?: ShardListener<T>): Promise<ShardedRead<T>> {
    const opened = await openCacheFile(this.key, this.aad(MANIFEST), join(this.dir, MANIFEST));
    if (!opened.ok) {
      if (opened.problem === 'missing' || opened.problem === 'unavailable') return { status: opened.problem };
      return { status: 'unreadable', problem: opened.problem };
    }
    // It opened with our key, so a manifest we cannot parse was written by another version.
    const manifest = parseManifest(opened.bytes);
    if (!manifest) return { status: 'unreadable', problem: 'incompatible' };
    const value: T[] = [];
    for (let i = 0; i < manifest.shards; i += 1) {
      const path = join(this.dir, manifest.generation, `${i}.bin`);
      const expected = manifest.sizes?.[i];
      const size = await sizeOf(path);
      if (size === null) return { status: 'unavailable' };
      if (expected !== undefined && size < expected) return { status: 'unreadable', problem: 'incomplete' };
      const shard = await openCacheFile(this.key, this.aad(`${manifest.generation}/${i}`), path);
      if (!shard.ok) {
        if (shard.problem === 'unavailable') return { status: 'unavailable' };
        // A shard the manifest names but that is not there is a copy cut short.
        return { status: 'unreadable', problem: shard.problem === 'missing' ? 'incomplete' : shard.problem };
      }
      let rows: unknown;
      try {
        rows = JSON.parse(shard.bytes.toString('utf8'));
      } catch {
        return { status: 'unreadable', problem: 'incompatible' };
      }
      if (!Array.isArray(rows)) return { status: 'unreadable', problem: 'incompatible' };
      for (const row of rows as T[]) value.push(row);
      onRows?.({ rows: value, loaded: value.length, total: manifest.count, fetchedAt: manifest.fetchedAt });
      if (i + 1 < manifest.shards) await yieldToEventLoop();
    }
    if (value.length !== manifest.count) return { status: 'unreadable', problem: 'incomplete' };
    return { status: 'ok', fetchedAt: manifest.fetchedAt, value };
  }

  /** Removes generations a crash left uncommitted, and torn temp files. */
  async removeLeftovers(keep?: string): Promise<void> {
    let current = keep;
    if (current === undefined) {
      const opened = await openCacheFile(this.key, this.aad(MANIFEST), join(this.dir, MANIFEST));
      // A manifest that cannot be read is reported by the next read; its shards are not swept away unseen.
      if (!opened.ok && opened.problem !== 'missing') return;
      current = opened.ok ? parseManifest(opened.bytes)?.generation : undefined;
      if (opened.ok && current === undefined) return;
    }
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    await Promise.all(
      names
        .filter((name) => name !== MANIFEST && name !== current)
        .map((name) => rm(join(this.dir, name), { recursive: true, force: true })),
    );
  }

  async clear(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A file's size, 0 when it is not there, null when the file system would not say right now. */
async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await retryTransient(() => stat(path))).size;
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 0 : null;
  }
}

function parseManifest(bytes: Buffer): Manifest | null {
  try {
    const m = JSON.parse(bytes.toString('utf8')) as Partial<Manifest>;
    if (typeof m.generation !== 'string' || !/^[0-9a-f]{16}$/.test(m.generation)) return null;
    if (typeof m.fetchedAt !== 'string' || typeof m.count !== 'number' || typeof m.shards !== 'number') return null;
    if (m.sizes !== undefined && !(Array.isArray(m.sizes) && m.sizes.every((n) => typeof n === 'number'))) return null;
    return m as Manifest;
  } catch {
    return null;
  }
}
