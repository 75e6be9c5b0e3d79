import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replicaKeyService, Replica } from '../../electron/services/replica/replica.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { CapacityPolicy } from '../../shared/api/capacity.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { capacityCount, readKind } from '../../electron/services/replica/replica-reads.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';

const alex = SANDBOX_USERS[0]!;
const owner = { profileId: 'sandbox', username: alex.username };
const dirs: string[] = [];
let app: TestApp | null = null;
/** Every replica a test opens is closed before its folder goes: its checkpoint thread may still be opening the file. */
const opened: Array<{ close(): Promise<void> }> = [];

async function openReplica(options: Parameters<typeof Replica.open>[0]): Promise<Replica> {
  const replica = await Replica.open(options);
  opened.push(replica);
  return replica;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cd-cache-'));
  dirs.push(dir);
  return dir;
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

afterEach(async () => {
  await app?.close();
  app = null;
  for (const replica of opened.splice(0)) await replica.close();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('the encrypted policy cache', () => {
  it('syncs from the sandbox, answers queries offline, and keeps nothing in clear on disk', async () => {
    const secrets = new FixedSecretStore();
    app = await startTestApp({ secrets });
    const { handlers, replica: offline } = app.services;
    await handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
    await handlers['profiles.rememberCustomer']?.({ customerId: 'CUST-1001' });

    const summary = await handlers['offline.sync'](undefined);
    const list = await handlers['capacity.list']({ limit: 1, offset: 0, text: '', sortBy: 'createdDate', sortOrder: 'desc' });
    expect(summary.capacities).toBe(list.total);
    expect(summary.accounts).toBe(alex.linkedAccounts.length);

    const status = await handlers['offline.status'](undefined);
    expect(status.persistent).toBe(true);
    expect(status.capacityCount).toBe(list.total);
    expect(Date.parse(status.fetchedAt.capacities ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // The sandbox goes away: the cached list still answers, filtered and sorted in the main process.
    await app.services.sandbox.close();
    const window = await offline.queryCapacities({ status: 'ACTIVE', sortBy: 'ourPrice', sortOrder: 'asc', limit: 5 });
    expect(window.rows.length).toBeGreaterThan(0);
    expect(window.rows.every((r) => r.policyStatus === 'ACTIVE')).toBe(true);
    const prices = window.rows.map((r) => r.pricing?.ourPrice ?? Number.NaN);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const someone = CapacityPolicy.parse(window.rows[0]);
    const byId = await offline.queryCapacities({ text: someone.cidrId });
    expect(byId.rows.map((r) => r.cidrId)).toContain(someone.cidrId);

    // One database per owner (with its journal), and the plain facts beside it.
    const files = await filesUnder(join(app.dataDir, 'cache'));
    expect(files.some((file) => file.endsWith('replica.db'))).toBe(true);
    for (const file of files) {
      const bytes = await readFile(file);
      expect(bytes.includes(Buffer.from(someone.cidrId)), file).toBe(false);
      expect(bytes.includes(Buffer.from(someone.policyName)), file).toBe(false);
      expect(bytes.includes(Buffer.from(alex.username)), file).toBe(false);
    }
  });

  it('discards files it cannot open with the key, cleanly, and starts over', async () => {
    const dataDir = await tempDir();
    const secrets = new FixedSecretStore();
    const first = await openReplica({ dataDir, secrets, owner });
    await writeKind(first, 'accounts', alex.linkedAccounts.slice());
    // Another key appears in the keychain (restored backup, another machine's key...).
    await secrets.set(replicaKeyService('sandbox'), alex.username, Buffer.alloc(32, 7).toString('base64'));
    const second = await openReplica({ dataDir, secrets, owner });
    expect(await readKind(second, 'accounts')).toBeNull();
    expect(second.discarded).toBe(1);
    expect(second.unreadable).toMatchObject({ state: 'unreadable', reason: 'damaged' });
    // Only the note that tells the user what was lost stays; no file of the copy does.
    expect(await filesUnder(second.dir)).toEqual([join(second.dir, 'unreadable.json')]);
    await writeKind(second, 'accounts', alex.linkedAccounts.slice(0, 1));
    expect((await readKind(await openReplica({ dataDir, secrets, owner }), 'accounts'))?.value).toHaveLength(1);
  });

  it('a missing key means the old files are removed, not read', async () => {
    const dataDir = await tempDir();
    const secrets = new FixedSecretStore();
    await writeKind(await openReplica({ dataDir, secrets, owner }), 'accounts', alex.linkedAccounts.slice());
    secrets.entries.clear();
    const reopened = await openReplica({ dataDir, secrets, owner });
    expect(await readKind(reopened, 'accounts')).toBeNull();
  });

  it('with no keychain, writes nothing to disk and says so', async () => {
    const secrets = new MemorySecretStore('No keychain in this test.');
    app = await startTestApp({ secrets });
    const { handlers } = app.services;
    await handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
    await handlers['offline.sync'](undefined);
    const status = await handlers['offline.status'](undefined);
    expect(status.persistent).toBe(false);
    expect(status.reason).toMatch(/nothing is written to disk/);
    expect(status.capacityCount).toBeGreaterThan(0);
    expect(await filesUnder(join(app.dataDir, 'cache'))).toEqual([]);
  });

  it('keeps the cache key in the real keychain', async () => {
    const keychain = await realKeychain();
    if (!keychain.store) {
      expect(KEYCHAIN_REQUIRED).toBe(false);
      return;
    }
    const dataDir = await tempDir();
    const realOwner = { profileId: `test-${process.pid}`, username: alex.username };
    const cache = await openReplica({ dataDir, secrets: keychain.store, owner: realOwner });
    await writeKind(cache, 'accounts', alex.linkedAccounts.slice());
    const stored = await keychain.keytar.getPassword(replicaKeyService(realOwner.profileId), realOwner.username);
    expect(Buffer.from(stored ?? '', 'base64')).toHaveLength(32);
    expect((await readKind(await openReplica({ dataDir, secrets: keychain.store, owner: realOwner }), 'accounts'))?.value).toHaveLength(
      alex.linkedAccounts.length,
    );
    await keychain.keytar.deletePassword(replicaKeyService(realOwner.profileId), realOwner.username);
  });
});

describe('loading a large cache', () => {
  it('answers the newest window and any filtered, sorted query over every shard', async () => {
    const { CurrentReplica } = await import('../../electron/services/replica/current-replica.js');
    const { AppEvents } = await import('../../electron/services/events.js');
    const { syntheticPolicies } = await import('../support/synthetic-policies.js');
    const dataDir = await tempDir();
    const secrets = new FixedSecretStore();
    const rows = syntheticPolicies(2500).reverse(); // newest first, as a sync stores them
    const writer = await openReplica({ dataDir, secrets, owner });
    await writeKind(writer, 'capacities', rows);
    await writer.close();
    const session = {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: async () => {
        throw new Error('offline review must not call the service');
      },
    };
    const offline = new CurrentReplica({
      dataDir,
      secrets,
      session,
      events: new AppEvents(),
      lastUsername: () => owner.username,
      logger: { warn: () => undefined },
    });
    opened.push(offline);
    // The first answer may come from SQL while the slim rows load; the same rows either way.
    const full = await offline.queryCapacities({ limit: 50 });
    expect(full.total).toBe(2500);
    expect(full.rows.map((r) => r.cidrId)).toEqual(rows.slice(0, 50).map((r) => r.cidrId));
    const bySql = await offline.queryCapacities({ text: 'g5.12xlarge', sortBy: 'ourPrice', limit: 500 });
    await (await offline.replica())!.warm();
    const filtered = await offline.queryCapacities({ text: 'g5.12xlarge', sortBy: 'ourPrice', limit: 500 });
    expect(filtered.loading).toBe(false);
    expect(filtered.total).toBe(rows.filter((r) => r.policyInstance.instanceType === 'g5.12xlarge').length);
    expect(filtered.rows.map((r) => r.cidrId)).toEqual(bySql.rows.map((r) => r.cidrId));
    expect(await offline.read(capacityCount)).toBe(2500);
  });
});
