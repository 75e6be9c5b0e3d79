import { CapacityWindow } from '../../shared/ipc/sourced.js';
import { mkdtemp, open, readdir, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOfflineHandlers } from '../../electron/services/cache/offline-handlers.js';
import { OfflineService } from '../../electron/services/cache/offline-service.js';
import { cacheKeyService, PolicyCache, type CacheOwner } from '../../electron/services/cache/policy-cache.js';
import { AppEvents } from '../../electron/services/events.js';
import { dispatch } from '../../electron/services/ipc/dispatch.js';
import type { Handlers } from '../../shared/ipc/contract.js';
import { FileLogger } from '../../electron/services/logging/file-logger.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { CacheStatus, LocalCapacityWindow } from '../../shared/ipc/offline.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * An offline copy that exists but cannot be read (a flipped byte, a file cut
 * short, a key gone from the keychain) is reported, logged once, and never
 * served: over IPC the answer is the typed unreadable state, never rows.
 */
const alex = SANDBOX_USERS[0]!;
const ROWS = 2500;
const SHARD_ROWS = 500;
const dirs: string[] = [];
let app: TestApp | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cd-unreadable-'));
  dirs.push(dir);
  return dir;
}

/** The capacity shards of a copy, in shard order. */
async function shardFiles(cacheDir: string): Promise<string[]> {
  const entries = await readdir(cacheDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /^\d+\.bin$/.test(e.name) && /[0-9a-f]{16}$/.test(e.parentPath))
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => Number(a.match(/(\d+)\.bin$/)![1]) - Number(b.match(/(\d+)\.bin$/)![1]));
}

/** Flips one byte in the middle of a file, in place (same size, as a failing disk would). */
async function flipByte(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    const { size } = await handle.stat();
    const at = Math.floor(size / 2);
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] = byte[0]! ^ 0x01;
    await handle.write(byte, 0, 1, at);
  } finally {
    await handle.close();
  }
}

/** An offline service over real files and real crypto, answering over the same dispatch both hosts use. */
function offlineOver(dataDir: string, secrets: SecretStore, owner: CacheOwner, logger: FileLogger) {
  const offline = new OfflineService({
    dataDir,
    secrets,
    session: {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: async () => {
        throw new Error('reading the offline copy must not call the service');
      },
    },
    events: new AppEvents(),
    lastUsername: () => owner.username,
    logger,
  });
  const handlers = createOfflineHandlers(offline) as unknown as Handlers;
  const call = async (channel: string, input?: unknown) => {
    const result = await dispatch(handlers, channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  };
  return {
    offline,
    // What the repository asks of the copy for the list view (the list channel adds the service's pages around it).
    capacities: async (query: object = { limit: 50 }) => LocalCapacityWindow.parse(await offline.queryCapacities(query)),
    status: async () => CacheStatus.parse(await call('offline.status')),
    accounts: () => offline.accounts(),
  };
}

async function logLines(logger: FileLogger): Promise<string[]> {
  await logger.flush();
  const text = await readFile(logger.file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.includes('[offline-cache]') && line.includes('could not be read'));
}

/** A copy of ROWS policies in shards of SHARD_ROWS, plus linked accounts, written through the real cache. */
async function writtenCopy(secrets: SecretStore, owner: CacheOwner) {
  const dataDir = await tempDir();
  const cache = await PolicyCache.open({ dataDir, secrets, owner, shardRows: SHARD_ROWS });
  const rows = syntheticPolicies(ROWS).reverse();
  const before = Date.now();
  await cache.write('capacities', rows);
  await cache.write('accounts', alex.linkedAccounts.slice());
  const logger = new FileLogger({ dir: join(dataDir, 'logs') });
  return { dataDir, cache, rows, before, logger };
}

function expectUnreadable(window: LocalCapacityWindow, reason: string, writtenAfter: number) {
  expect(window.rows).toEqual([]);
  expect(window.total).toBe(0);
  expect(window.unreadable).toMatchObject({ state: 'unreadable', reason, recordsLost: ROWS });
  expect(Date.parse(window.unreadable?.lastWrittenAt ?? '')).toBeGreaterThanOrEqual(writtenAfter - 1000);
  expect(Date.parse(window.unreadable?.lastWrittenAt ?? '')).toBeLessThanOrEqual(Date.now());
}

describe('an offline copy that cannot be read', () => {
  it('a flipped byte in a later shard: reported once, logged, and no row is served, not even the shards read before it', async () => {
    const owner = { profileId: 'sandbox', username: alex.username };
    const secrets = new FixedSecretStore();
    const { dataDir, cache, rows, before, logger } = await writtenCopy(secrets, owner);
    const shards = await shardFiles(cache.dir);
    expect(shards).toHaveLength(ROWS / SHARD_ROWS);
    await flipByte(shards[3]!);

    const service = offlineOver(dataDir, secrets, owner, logger);
    expectUnreadable(await service.capacities(), 'damaged', before);
    // The first shards were read before the damaged one: they must not be handed out afterwards.
    for (const query of [{ limit: 50 }, { offset: 0, limit: 500 }, { text: rows[0]!.cidrId }, { sortBy: 'ourPrice', limit: 10 }]) {
      expectUnreadable(await service.capacities(query), 'damaged', before);
    }
    const status = await service.status();
    expect(status.unreadable).toMatchObject({ state: 'unreadable', reason: 'damaged', recordsLost: ROWS });
    expect(status.capacityCount).toBe(0);
    expect(status.fetchedAt).toEqual({});
    // Every part of the copy is withheld, not only the damaged list.
    expect(await service.accounts()).toBeNull();

    const lines = await logLines(logger);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/could not be read \(damaged\); it held 2500 policies, last written \d{4}-/);
    expect(lines[0]).not.toContain(alex.username);
    expect(lines[0]).not.toContain(rows[0]!.cidrId);
  });

  it('a truncated shard is reported as cut short, and a fresh copy clears the report', async () => {
    const owner = { profileId: 'sandbox', username: alex.username };
    const secrets = new FixedSecretStore();
    const { dataDir, cache, before, logger } = await writtenCopy(secrets, owner);
    const shards = await shardFiles(cache.dir);
    await truncate(shards[1]!, 4000);

    const service = offlineOver(dataDir, secrets, owner, logger);
    expectUnreadable(await service.capacities(), 'incomplete', before);
    expect(await logLines(logger)).toHaveLength(1);

    // Reported again after a restart (the note survives), but not logged again.
    const restarted = offlineOver(dataDir, secrets, owner, logger);
    expectUnreadable(await restarted.capacities(), 'incomplete', before);
    expect(await logLines(logger)).toHaveLength(1);

    // A fresh copy replaces it.
    const reopened = await restarted.offline.cache();
    await reopened!.write('capacities', syntheticPolicies(10));
    const fresh = offlineOver(dataDir, secrets, owner, logger);
    const window = await fresh.capacities();
    expect(window.unreadable).toBeUndefined();
    expect(window.total).toBe(10);
    expect((await fresh.status()).unreadable).toBeUndefined();
  });

  it('a truncated manifest is reported as cut short', async () => {
    const owner = { profileId: 'sandbox', username: alex.username };
    const secrets = new FixedSecretStore();
    const { dataDir, cache, before, logger } = await writtenCopy(secrets, owner);
    await truncate(join(cache.dir, 'capacities', 'manifest.bin'), 10);
    const service = offlineOver(dataDir, secrets, owner, logger);
    expectUnreadable(await service.capacities(), 'incomplete', before);
  });

  it('a key lost from the keychain: the copy is reported as locked, with its age and size, never silently deleted', async () => {
    const owner = { profileId: 'sandbox', username: alex.username };
    const secrets = new FixedSecretStore();
    const { dataDir, before, logger } = await writtenCopy(secrets, owner);
    await secrets.delete(cacheKeyService(owner.profileId), owner.username);

    const service = offlineOver(dataDir, secrets, owner, logger);
    expectUnreadable(await service.capacities(), 'key-missing', before);
    expect((await service.status()).unreadable?.reason).toBe('key-missing');
    const lines = await logLines(logger);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('(key-missing)');
  });

  it('reviewing offline without signing in: a copy whose key is lost is entered as unreadable, with nothing to show', async () => {
    const owner = { profileId: 'sandbox', username: alex.username };
    const secrets = new FixedSecretStore();
    const { dataDir, before, logger } = await writtenCopy(secrets, owner);
    await secrets.delete(cacheKeyService(owner.profileId), owner.username);
    const offline = new OfflineService({
      dataDir,
      secrets,
      session: {
        status: () => ({ signedIn: false, profileId: owner.profileId, keychain: { kind: 'keychain' as const } }),
        authorized: async () => {
          throw new Error('offline review must not call the service');
        },
      },
      events: new AppEvents(),
      lastUsername: () => owner.username,
      logger,
    });
    const handlers = createOfflineHandlers(offline) as unknown as Handlers;
    const entered = await dispatch(handlers, 'offline.enter', { profileId: owner.profileId });
    expect(entered.ok && CacheStatus.parse(entered.value).unreadable).toMatchObject({ reason: 'key-missing', recordsLost: ROWS });
    expectUnreadable(LocalCapacityWindow.parse(await offline.queryCapacities({ limit: 50 })), 'key-missing', before);
    expect(await logLines(logger)).toHaveLength(1);
  });

  it('a key lost from the real keychain is reported the same way', async () => {
    const keychain = await realKeychain();
    if (!keychain.store) {
      expect(KEYCHAIN_REQUIRED).toBe(false);
      return;
    }
    const owner = { profileId: `unreadable-${process.pid}`, username: alex.username };
    const { dataDir, before, logger } = await writtenCopy(keychain.store, owner);
    expect(await keychain.keytar.deletePassword(cacheKeyService(owner.profileId), owner.username)).toBe(true);
    try {
      const service = offlineOver(dataDir, keychain.store, owner, logger);
      expectUnreadable(await service.capacities(), 'key-missing', before);
      expect(await logLines(logger)).toHaveLength(1);
    } finally {
      await keychain.keytar.deletePassword(cacheKeyService(owner.profileId), owner.username);
    }
  });

  it('in a running app, a copy damaged on disk after it was loaded is found at the next read over IPC, and its rows are no longer served', async () => {
    app = await startTestApp({ secrets: new FixedSecretStore() });
    const { handlers, logger } = app.services;
    await handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
    const summary = await handlers['offline.sync'](undefined);
    const call = async (channel: string, input?: unknown) => {
      const result = await dispatch(handlers, channel, input);
      if (!result.ok) throw new Error(result.error.message);
      return result.value;
    };
    const loaded = CapacityWindow.parse(await call('capacity.list', { limit: 5 }));
    expect(loaded.origin.source).toBe('replica');
    expect(loaded.rows).toHaveLength(5);

    const cacheDir = (await app.services.offline.cache())!.dir;
    await flipByte((await shardFiles(cacheDir))[0]!);
    await app.services.sandbox.close();

    // The list's channel: the copy is unreadable and the service away, so nothing, and why.
    const window = CapacityWindow.parse(await call('capacity.list', { limit: 5 }));
    expect(window.rows).toEqual([]);
    expect(window.unreadable).toMatchObject({ state: 'unreadable', reason: 'damaged', recordsLost: summary.capacities });
    const status = CacheStatus.parse(await call('offline.status'));
    expect(status.unreadable?.reason).toBe('damaged');
    expect(status.capacityCount).toBe(0);
    expect(await logLines(logger)).toHaveLength(1);
  });
});
