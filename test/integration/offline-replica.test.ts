import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineService } from '../../electron/services/cache/offline-service.js';
import { PolicyCache, type CacheOwner } from '../../electron/services/cache/policy-cache.js';
import { AppEvents } from '../../electron/services/events.js';
import { summarizeCapacities } from '../../electron/services/overview/summarize.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/** OfflineService over the replica database: answers, write-through of one policy, the overview, counts. */
const owner: CacheOwner = { profileId: 'sandbox', username: 'replica@example.com' };
const ROWS = 3000;
const dirs: string[] = [];
const services: OfflineService[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map(async (s) => (await s.cache())?.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function serviceOver(secrets: SecretStore, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'cd-offline-replica-')));
  if (!dataDir) dirs.push(dir);
  const offline = new OfflineService({
    dataDir: dir,
    secrets,
    session: {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: async () => {
        throw new Error('answers from the replica must not call the service');
      },
    },
    events: new AppEvents(),
    lastUsername: () => owner.username,
    logger: { warn: () => undefined },
  });
  services.push(offline);
  return { offline, dataDir: dir };
}

async function filled(secrets: SecretStore) {
  const service = await serviceOver(secrets);
  const rows = syntheticPolicies(ROWS).reverse();
  const fetchedAt = new Date('2026-11-22T08:00:00.000Z');
  await (await service.offline.cache())!.write('capacities', rows, fetchedAt);
  return { ...service, rows, fetchedAt };
}

const asOf = new Date(Date.UTC(2026, 5, 1));

describe('OfflineService over the replica database', () => {
  it('counts, dates and summarises the list from the replica, exactly as the whole list would', async () => {
    const { offline, rows, fetchedAt } = await filled(new FixedSecretStore());
    expect(await offline.capacityCount()).toBe(ROWS);
    expect(await offline.capacitiesFetchedAt()).toBe(fetchedAt.toISOString());
    expect(await offline.capacityOverview(asOf)).toEqual(summarizeCapacities(rows, asOf));
    expect((await offline.status()).capacityCount).toBe(ROWS);
  });

  it('writes one changed policy through as one row: every list, count and figure sees it, the others are not rewritten', async () => {
    const secrets = new FixedSecretStore();
    const { offline, rows, dataDir } = await filled(secrets);
    await offline.queryCapacities({ limit: 10 });
    await (await offline.cache())!.warm();
    // The refresh's checkpoint (on its thread) has folded the log into the file.
    await (await offline.cache())!.settled();
    const cacheDir = (await offline.cache())!.dir;
    const journal = join(cacheDir, 'replica.db-wal');
    const before = (await stat(journal).catch(() => ({ size: 0 }))).size;
    const database = (await stat(join(cacheDir, 'replica.db'))).size;

    const changed = { ...rows[1234]!, policyStatus: 'CANCELED', policyName: 'Cancelled by write-through' };
    await offline.upsertCapacity(changed);

    // One row and its pages reach the journal: a tiny fraction of the list's size.
    const written = (await stat(journal)).size - before;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(database / 20);
    const found = await offline.queryCapacities({ text: 'cancelled by write-through' });
    expect(found.rows).toEqual([changed]);
    expect(found.loading).toBe(false);
    expect((await offline.queryCapacities({ text: rows[1234]!.cidrId })).rows).toEqual([changed]);
    expect(await offline.capacityCount()).toBe(ROWS);
    const after = rows.map((p) => (p.cidrId === changed.cidrId ? changed : p));
    expect(await offline.capacityOverview(asOf)).toEqual(summarizeCapacities(after, asOf));

    // A new policy is added; the list's age stays the sync's.
    const added = { ...rows[0]!, cidrId: 'sc_new_1', policyName: 'Bought just now' };
    await offline.upsertCapacity(added);
    expect(await offline.capacityCount()).toBe(ROWS + 1);

    // And it is on disk: the next start reads the same.
    const reopened = await PolicyCache.open({ dataDir, secrets, owner });
    expect(await reopened.capacityCount()).toBe(ROWS + 1);
    expect((await reopened.queryCapacities({ text: 'bought just now', status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 5 }))?.rows).toEqual([added]);
    await reopened.close();
  });

  it('a write-through landing while the index is still being built in the background is found by the next search', async () => {
    // The rows load, then the index and the default order are built a turn of the event loop apart: a write is
    // tried before, between and after those turns.
    for (let turns = 0; turns < 4; turns += 1) {
      const { offline, rows } = await filled(new FixedSecretStore());
      await (await offline.cache())!.warm();
      for (let i = 0; i < turns; i += 1) await setImmediate();
      const renamed = { ...rows[77]!, policyName: `Renamed after ${turns} turns` };
      await offline.upsertCapacity(renamed);
      const added = { ...rows[0]!, cidrId: `sc_added_${turns}`, policyName: `Added after ${turns} turns` };
      await offline.upsertCapacity(added);
      expect((await offline.queryCapacities({ text: `renamed after ${turns} turns` })).rows).toEqual([renamed]);
      expect((await offline.queryCapacities({ text: rows[77]!.cidrId })).rows).toEqual([renamed]);
      expect((await offline.queryCapacities({ text: `added after ${turns}` })).rows).toEqual([added]);
      const newest = await offline.queryCapacities({ limit: 2, sortBy: 'createdDate', sortOrder: 'desc' });
      expect(newest.total).toBe(ROWS + 1);
      // Created at the same instant as the newest: the two lead the list.
      expect(new Set(newest.rows.map((r) => r.cidrId))).toEqual(new Set([rows[0]!.cidrId, added.cidrId]));
    }
    // Four fills of the replica are set-up, not the subject: 16 s of the integration default 30 s at load 20.
  }, 120_000);

  it('close folds the journal into the file, and the next start reads the same copy', async () => {
    const secrets = new FixedSecretStore();
    const { offline, dataDir, rows } = await filled(secrets);
    await offline.upsertCapacity({ ...rows[3]!, policyName: 'Kept across close' });
    const dir = (await offline.cache())!.dir;
    await offline.close();
    expect((await readdir(dir)).filter((name) => name.startsWith('replica.db'))).toEqual(['replica.db']);
    const next = await serviceOver(secrets, dataDir);
    expect((await next.offline.queryCapacities({ text: 'kept across close' })).total).toBe(1);
    expect(await next.offline.capacityCount()).toBe(ROWS);
  });

  it('a copy not yet synced stays empty: a write-through does not start a list whose age would lie', async () => {
    const { offline } = await serviceOver(new FixedSecretStore());
    await offline.upsertCapacity(syntheticPolicies(1)[0]!);
    expect(await offline.capacityCount()).toBe(0);
    expect(await offline.capacitiesFetchedAt()).toBeNull();
    expect(await offline.capacityOverview(asOf)).toBeNull();
    expect((await offline.queryCapacities({ limit: 5 })).rows).toEqual([]);
  });

  it('with no keychain the same answers come from a database in memory, and nothing reaches the disk', async () => {
    const { offline, rows, dataDir } = await filled(new MemorySecretStore('No keychain in this test.'));
    const changed = { ...rows[7]!, policyName: 'Renamed in memory' };
    await offline.upsertCapacity(changed);
    expect((await offline.queryCapacities({ text: 'renamed in memory' })).rows).toEqual([changed]);
    expect(await offline.capacityCount()).toBe(ROWS);
    expect(await offline.capacityOverview(asOf)).toEqual(summarizeCapacities(rows.map((p) => (p.cidrId === changed.cidrId ? changed : p)), asOf));
    await offline.rememberAccounts([]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('keeps details and DR records one per id: remembering one does not drop another', async () => {
    const { offline } = await filled(new FixedSecretStore());
    const cache = (await offline.cache())!;
    await cache.write('cyberLists', { 'CUST-1': { fetchedAt: '2026-11-22T08:00:00.000Z', value: [] } });
    expect(await offline.cyberList('cust-1')).toEqual({ fetchedAt: '2026-11-22T08:00:00.000Z', value: [] });
    expect(await cache.recordIds('cyberLists')).toEqual(['CUST-1']);
    expect((await cache.summary()).cyberLists).toBeDefined();
  });
});
