import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import type { Owner } from '../../electron/services/platform/owner.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { AppEvents } from '../../electron/services/events.js';
import { summarizeCapacities } from '../../electron/services/overview/summarize.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { capacitiesFetchedAt, capacityCount, capacityOverview, capacityWindow, fetchedAtByKind, readCyberList, recordIds } from '../../electron/services/replica/replica-reads.js';
import { upsertCapacity, writeKind } from '../../electron/services/replica/replica-writes.js';
import { PolicyRepository } from '../../electron/services/repository/policy-repository.js';

/** CurrentReplica over the replica database: answers, write-through of one policy, the overview, counts. */
const owner: Owner = { profileId: 'sandbox', username: 'replica@example.com' };
const ROWS = 3000;
const dirs: string[] = [];
const services: CurrentReplica[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map(async (s) => (await s.replica())?.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function serviceOver(secrets: SecretStore, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'cd-offline-replica-')));
  if (!dataDir) dirs.push(dir);
  const offline = new CurrentReplica({
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
  await writeKind((await service.offline.replica())!, 'capacities', rows, fetchedAt);
  return { ...service, rows, fetchedAt };
}

const asOf = new Date(Date.UTC(2026, 5, 1));

describe('CurrentReplica over the replica database', () => {
  it('counts, dates and summarises the list from the replica, exactly as the whole list would', async () => {
    const { offline, rows, fetchedAt } = await filled(new FixedSecretStore());
    expect(await offline.read(capacityCount)).toBe(ROWS);
    expect(await offline.read(capacitiesFetchedAt)).toBe(fetchedAt.toISOString());
    expect(await offline.read((r) => capacityOverview(r, asOf))).toEqual(summarizeCapacities(rows, asOf));
    expect((await offline.status()).capacityCount).toBe(ROWS);
  });

  it('writes one changed policy through as one row: every list, count and figure sees it, the others are not rewritten', async () => {
    const secrets = new FixedSecretStore();
    const { offline, rows, dataDir } = await filled(secrets);
    await offline.queryCapacities({ limit: 10 });
    await (await offline.replica())!.warm();
    // The refresh's checkpoint (on its thread) has folded the log into the file.
    await (await offline.replica())!.settled();
    const cacheDir = (await offline.replica())!.dir;
    const journal = join(cacheDir, 'replica.db-wal');
    const before = (await stat(journal).catch(() => ({ size: 0 }))).size;
    const database = (await stat(join(cacheDir, 'replica.db'))).size;

    const changed = { ...rows[1234]!, policyStatus: 'CANCELED', policyName: 'Cancelled by write-through' };
    await offline.write((r) => upsertCapacity(r, changed));

    // One row and its pages reach the journal: a tiny fraction of the list's size.
    const written = (await stat(journal)).size - before;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(database / 20);
    const found = await offline.queryCapacities({ text: 'cancelled by write-through' });
    expect(found.rows).toEqual([changed]);
    expect(found.loading).toBe(false);
    expect((await offline.queryCapacities({ text: rows[1234]!.cidrId })).rows).toEqual([changed]);
    expect(await offline.read(capacityCount)).toBe(ROWS);
    const after = rows.map((p) => (p.cidrId === changed.cidrId ? changed : p));
    expect(await offline.read((r) => capacityOverview(r, asOf))).toEqual(summarizeCapacities(after, asOf));

    // A new policy is added; the list's age stays the sync's.
    const added = { ...rows[0]!, cidrId: 'sc_new_1', policyName: 'Bought just now' };
    await offline.write((r) => upsertCapacity(r, added));
    expect(await offline.read(capacityCount)).toBe(ROWS + 1);

    // And it is on disk: the next start reads the same.
    const reopened = await Replica.open({ dataDir, secrets, owner });
    expect(await capacityCount(reopened)).toBe(ROWS + 1);
    expect((await capacityWindow(reopened, { text: 'bought just now', status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 5 }))?.rows).toEqual([added]);
    await reopened.close();
  });

  it('a write-through landing while the index is still being built in the background is found by the next search', async () => {
    // The rows load, then the index and the default order are built a turn of the event loop apart: a write is
    // tried before, between and after those turns.
    for (let turns = 0; turns < 4; turns += 1) {
      const { offline, rows } = await filled(new FixedSecretStore());
      await (await offline.replica())!.warm();
      for (let i = 0; i < turns; i += 1) await setImmediate();
      const renamed = { ...rows[77]!, policyName: `Renamed after ${turns} turns` };
      await offline.write((r) => upsertCapacity(r, renamed));
      const added = { ...rows[0]!, cidrId: `sc_added_${turns}`, policyName: `Added after ${turns} turns` };
      await offline.write((r) => upsertCapacity(r, added));
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
    await offline.write((r) => upsertCapacity(r, { ...rows[3]!, policyName: 'Kept across close' }));
    const dir = (await offline.replica())!.dir;
    await offline.close();
    expect((await readdir(dir)).filter((name) => name.startsWith('replica.db'))).toEqual(['replica.db']);
    const next = await serviceOver(secrets, dataDir);
    expect((await next.offline.queryCapacities({ text: 'kept across close' })).total).toBe(1);
    expect(await next.offline.read(capacityCount)).toBe(ROWS);
  });

  it('a copy not yet synced stays empty: a write-through does not start a list whose age would lie', async () => {
    const { offline } = await serviceOver(new FixedSecretStore());
    await offline.write((r) => upsertCapacity(r, syntheticPolicies(1)[0]!));
    expect(await offline.read(capacityCount)).toBe(0);
    expect(await offline.read(capacitiesFetchedAt)).toBeNull();
    expect(await offline.read((r) => capacityOverview(r, asOf))).toBeNull();
    expect((await offline.queryCapacities({ limit: 5 })).rows).toEqual([]);
  });

  it('with no keychain the same answers come from a database in memory, and nothing reaches the disk', async () => {
    const { offline, rows, dataDir } = await filled(new MemorySecretStore('No keychain in this test.'));
    const changed = { ...rows[7]!, policyName: 'Renamed in memory' };
    await offline.write((r) => upsertCapacity(r, changed));
    expect((await offline.queryCapacities({ text: 'renamed in memory' })).rows).toEqual([changed]);
    expect(await offline.read(capacityCount)).toBe(ROWS);
    expect(await offline.read((r) => capacityOverview(r, asOf))).toEqual(summarizeCapacities(rows.map((p) => (p.cidrId === changed.cidrId ? changed : p)), asOf));
    await offline.write((r) => writeKind(r, 'accounts', []));
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('keeps details and DR records one per id: remembering one does not drop another', async () => {
    const { offline } = await filled(new FixedSecretStore());
    const cache = (await offline.replica())!;
    await writeKind(cache, 'cyberLists', { 'CUST-1': { fetchedAt: '2026-11-22T08:00:00.000Z', value: [] } });
    expect(await offline.read((r) => readCyberList(r, 'cust-1'))).toEqual({ fetchedAt: '2026-11-22T08:00:00.000Z', value: [] });
    expect(await recordIds(cache, 'cyberLists')).toEqual(['CUST-1']);
    expect((await fetchedAtByKind(cache)).cyberLists).toBeDefined();
  });
});

describe('the repository over the replica, reviewing offline', () => {
  async function reviewing(rows: ReturnType<typeof syntheticPolicies>) {
    const { offline } = await serviceOver(new FixedSecretStore());
    await writeKind((await offline.replica())!, 'capacities', rows, new Date('2026-11-22T08:00:00.000Z'));
    await offline.enterOffline(owner.profileId);
    const repository = new PolicyRepository({
      session: {
        status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
        authorized: async () => {
          throw new Error('reviewing offline must not call the service');
        },
      },
      replica: offline,
      overview: { summary: () => Promise.reject(new Error('reviewing offline must not call the service')), changed: () => undefined },
      observe: () => undefined,
      report: (error) => {
        throw error;
      },
    });
    return repository;
  }

  it('answers a detail never opened from its row of the list, looked up by its id however many other policies name it', async () => {
    const rows = syntheticPolicies(120).reverse();
    const wanted = rows[rows.length - 1]!;
    // Newer policies whose names hold the wanted id: a text search for the id finds them first.
    const naming = rows.slice(0, 80).map((row) => ({ ...row, policyName: `Moved from ${wanted.cidrId}` }));
    const repository = await reviewing([...naming, ...rows.slice(80)]);

    const detail = await repository.capacityDetail(wanted.cidrId);
    expect(detail.origin.source).toBe('replica');
    expect(detail.cidrId).toBe(wanted.cidrId);
    expect(detail.policyDetails?.policyName).toBe(wanted.policyName);
  });

  it('says a policy the list does not hold is not in the local copy, for hostile ids too', async () => {
    const repository = await reviewing(syntheticPolicies(20));
    for (const cidrId of ['sc_999999', '__proto__', 'constructor', '\u202Esc_100001', 'x'.repeat(500)]) {
      await expect(repository.capacityDetail(cidrId)).rejects.toMatchObject({ error: { kind: 'offline' } });
    }
  });
});
