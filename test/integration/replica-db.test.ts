import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CapacityIndex } from '../support/policy-index.js';
import { launchesLater, summarizeCapacities } from '../../electron/services/overview/summarize.js';
import { CapacityReplicaDb, verifyReplicaFile } from '../../electron/services/replica/capacity-replica-db.js';
import { CapacityReplica } from '../../electron/services/replica/capacity-replica.js';
import { LOCAL_SORT_COLUMNS } from '../../shared/ipc/offline.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { bundleScript, bundledScriptEnv } from '../support/bundled-script.js';
import { accountKey } from '../../shared/customers/matching.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';

/** The encrypted SQLite replica against its real files: encryption, search, write-through and crashes. */
let dir = '';
const query = { status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 100 } as const;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-replica-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the check of every page of a replica file', () => {
  it('reads every table and index, partial ones included: a page damaged in any of them is found', async () => {
    const key = randomBytes(32);
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    await db.replaceAll(syntheticPolicies(3_000), '2026-11-22T10:00:00.000Z');
    await db.close();
    const reader = openKeyed(file, key, 1024);
    const pageSize = Number(reader.pragma('page_size', { simple: true }));
    const trees = reader.prepare(`SELECT name, rootpage, sql FROM sqlite_master WHERE rootpage > 1 ORDER BY name`).all() as Array<{ name: string; rootpage: number; sql: string | null }>;
    reader.close();
    // The overview's partial index is among them (SQLite refuses INDEXED BY on it without its condition).
    expect(trees.some((tree) => /\bWHERE\b/i.test(tree.sql ?? ''))).toBe(true);
    await expect(verifyReplicaFile(file, key)).resolves.toBeUndefined();
    const original = await readFile(file);
    for (const tree of trees) {
      const handle = await open(file, 'r+');
      const at = (tree.rootpage - 1) * pageSize + pageSize / 2;
      await handle.write(Buffer.from([original[at]! ^ 0xff]), 0, 1, at);
      await handle.close();
      const found = await verifyReplicaFile(file, key).then(() => null, (error: unknown) => error);
      expect(found, `${tree.name} (page ${tree.rootpage})`).toBeInstanceOf(Error);
      const restore = await open(file, 'r+');
      await restore.write(original.subarray(at, at + 1), 0, 1, at);
      await restore.close();
    }
  });
});

describe('capacity replica database', () => {
  it('keeps nothing readable on disk and refuses a wrong key', async () => {
    const key = randomBytes(32);
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    await db.replaceAll(syntheticPolicies(500, 'secret-customer'), '2026-11-22T10:00:00.000Z');
    await db.close();
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 16).toString('latin1')).not.toContain('SQLite format');
    expect(bytes.includes(Buffer.from('secret-customer'))).toBe(false);
    expect(bytes.includes(Buffer.from('sc_100000'))).toBe(false);
    expect(() => CapacityReplicaDb.open(file, randomBytes(32))).toThrow();
    const again = CapacityReplicaDb.open(file, key);
    expect(again.count).toBe(500);
    expect(again.fetchedAt).toBe('2026-11-22T10:00:00.000Z');
    await again.close();
  });

  it('answers search, filter and sort like a plain scan of the list', async () => {
    const policies = syntheticPolicies(2_000);
    const db = CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32));
    await db.replaceAll(policies, new Date().toISOString());
    for (const text of ['', 'm5', 'M5.2XL', 'sc_1001', 'reservation 19', 'morgan-a', 'euw1', 'zz']) {
      for (const status of [undefined, 'ACTIVE'] as const) {
        const expected = policies
          .filter((p) => !status || p.policyStatus === status)
          .filter((p) => [p.cidrId, p.policyName, p.policyInstance.instanceType, p.cspRegion.availabilityZoneId, p.cspAccountName].join('\u0001').toLowerCase().includes(text.toLowerCase()))
          .sort((a, b) => (a.createdDate < b.createdDate ? 1 : -1));
        const answer = db.query({ ...query, status, text });
        expect.soft(answer.total, `${text}/${status}`).toBe(expected.length);
        expect.soft(answer.rows.map((r) => r.cidrId), `${text}/${status}`).toEqual(expected.slice(0, 100).map((p) => p.cidrId));
      }
    }
    await db.close();
  });

  it('takes any search text literally, hostile ones included', async () => {
    const policies = syntheticPolicies(50);
    policies[3] = { ...policies[3]!, policyName: `100% "quoted" _under_ back\\slash __proto__ constructor' OR 1=1 --` };
    const db = CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32));
    await db.replaceAll(policies, new Date().toISOString());
    for (const text of ['100%', '"quoted"', '_under_', 'back\\slash', '__proto__', 'constructor', "' or 1=1 --", '%', '"']) {
      expect.soft(db.query({ ...query, text }).rows.map((r) => r.cidrId), text).toEqual([policies[3]!.cidrId]);
    }
    // Every id holds an underscore: a literal "_" matches them all, not "any one character".
    expect(db.query({ ...query, text: '_' }).total).toBe(50);
    expect(db.query({ ...query, text: 'c_1' }).total).toBe(50);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const needle = text.trim().toLowerCase();
        const expected = policies.filter((p) => [p.cidrId, p.policyName, p.policyInstance.instanceType, p.cspRegion.availabilityZoneId, p.cspAccountName].join('\u0001').toLowerCase().includes(needle)).length;
        return db.query({ ...query, text, limit: 500 }).total === expected;
      }),
      { numRuns: 300 },
    );
    await db.close();
  });

  it('writes one changed policy through without touching the others', async () => {
    const policies = syntheticPolicies(1_000);
    const db = CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32));
    await db.replaceAll(policies, new Date().toISOString());
    db.upsert({ ...policies[10]!, policyStatus: 'CANCELED', policyName: 'Changed by cancel' });
    expect(db.count).toBe(1_000);
    expect(db.query({ ...query, text: 'changed by cancel' }).rows).toMatchObject([{ cidrId: policies[10]!.cidrId, policyStatus: 'CANCELED' }]);
    const before = db.query({ ...query, text: policies[10]!.policyName, limit: 500 }).rows;
    expect(before.some((r) => r.cidrId === policies[10]!.cidrId)).toBe(false);
    expect(before.length).toBeGreaterThan(0);
    await db.close();
  });

  it('is old or new after a crash at any moment of a refresh, never torn', async () => {
    const key = randomBytes(32);
    const file = join(dir, 'crash.db');
    const writer = await bundleScript('test/support/replica-writer-child.ts', dir);
    for (let round = 0; round < 6; round += 1) {
      const child = spawn(process.execPath, [writer, file, key.toString('hex')], { stdio: ['ignore', 'pipe', 'inherit'], env: bundledScriptEnv() });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 150 + Math.random() * 400));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const db = CapacityReplicaDb.open(file, key);
      const count = db.count;
      expect([0, 3_000]).toContain(count);
      if (count) {
        const tags = new Set(db.query({ ...query, limit: 500 }).rows.map((r) => r.policyName?.split(' ')[0]));
        expect(tags.size).toBe(1);
        expect(db.query({ ...query, text: 'reservation', limit: 1 }).total).toBe(3_000);
      }
      await db.close();
    }
  }, 60_000);

  it('filters by a customer’s accounts (or by none of them) alike by SQL and by the index, any case and hostile names included', async () => {
    const accounts = ['morgan-prod', 'Morgan-Analytics', '__proto__', 'constructor', 'o\'brien "quoted" %_', 'ünïcødé', 'x'.repeat(200)];
    const policies = syntheticPolicies(700).map((p, i) => ({ ...p, cspAccountName: accounts[i % accounts.length] as string }));
    const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32)));
    await replica.replaceAll(policies, new Date().toISOString());
    const cases = [
      { keys: ['morgan-analytics'], inside: true },
      { keys: ['__proto__', 'constructor'], inside: true },
      { keys: ['o\'brien "quoted" %_', 'ünïcødé', 'x'.repeat(200)], inside: false },
      { keys: [], inside: false },
      { keys: [], inside: true },
    ];
    const expected = (filter: { keys: string[]; inside: boolean }) =>
      policies.filter((p) => filter.keys.includes(accountKey(p.cspAccountName)) === filter.inside).map((p) => p.cidrId).sort();
    const bySql = cases.map((accounts) => replica.query({ ...query, accounts, limit: 1_000 }));
    replica.load();
    cases.forEach((accounts, i) => {
      const byIndex = replica.query({ ...query, accounts, limit: 1_000 });
      const want = expected(accounts);
      expect.soft(bySql[i]?.total, JSON.stringify(accounts)).toBe(want.length);
      expect.soft(byIndex.total, JSON.stringify(accounts)).toBe(want.length);
      expect.soft(byIndex.rows.map((r) => r.cidrId).sort(), JSON.stringify(accounts)).toEqual(want);
      expect.soft(bySql[i]?.rows.map((r) => r.cidrId).sort(), JSON.stringify(accounts)).toEqual(want);
    });
    await replica.close();
  });

  it('answers through the in-memory index exactly as the index over whole records does, before and after a write-through', async () => {
    const policies = syntheticPolicies(1_500);
    const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32)));
    await replica.replaceAll(policies, new Date().toISOString());
    const firstScreen = replica.query({ ...query });
    const reference = new CapacityIndex(policies);
    // Matched to an offering, by SQL (before the slim rows load) and by the index (after), as the reference.
    const p = policies[11]!;
    const match = { instanceType: p.policyInstance.instanceType, platform: p.policyInstance.platformCode, availabilityZone: p.cspRegion.availabilityZoneId };
    const matched = { ...query, match, limit: 500 };
    const bySql = replica.query(matched);
    expect(bySql.total).toBeGreaterThan(0);
    expect(bySql.total).toBe(reference.query(matched).total);
    replica.load();
    expect(replica.query(matched).rows.map((r) => r.cidrId).sort()).toEqual(bySql.rows.map((r) => r.cidrId).sort());
    for (const sortBy of LOCAL_SORT_COLUMNS) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        for (const text of ['', 'm5', 'reservation 1']) {
          const q = { ...query, sortBy, sortOrder, text, offset: 20, limit: 40 };
          expect.soft(replica.query(q).rows.map((r) => r.cidrId), `${sortBy} ${sortOrder} ${text}`).toEqual(reference.query(q).rows.map((r) => r.cidrId));
        }
      }
    }
    expect(replica.query({ ...query }).rows).toEqual(firstScreen.rows);
    const asOf = new Date(Date.UTC(2026, 5, 1));
    expect(replica.overview(asOf)).toEqual(summarizeCapacities(policies, asOf));

    const changed = { ...policies[7]!, policyStatus: 'CANCELED', policyName: 'Zeta changed' };
    replica.upsert(changed);
    const after = policies.map((p) => (p.cidrId === changed.cidrId ? changed : p));
    expect(replica.query({ ...query, text: 'zeta changed' }).rows).toEqual([changed]);
    expect(replica.query({ ...query, sortBy: 'policyName', sortOrder: 'desc', limit: 1 }).rows).toEqual([changed]);
    expect(replica.overview(asOf)).toEqual(summarizeCapacities(after, asOf));
    await replica.close();
  });

  it('filters by account (any case), instance type, zone and launch window alike in SQL and in the index, against a plain scan', async () => {
    const policies = syntheticPolicies(1_500);
    const p = policies[42]!;
    const from = Date.parse(p.capacityConfiguration.launchDateTime) - 20 * 86_400_000;
    const to = from + 60 * 86_400_000;
    const cases = [
      { account: p.cspAccountName.toUpperCase() },
      { instanceType: p.policyInstance.instanceType },
      { availabilityZone: p.cspRegion.availabilityZoneId, launchFromMs: from },
      { launchFromMs: from, launchToMs: to, account: p.cspAccountName },
      { account: '__proto__' },
    ];
    const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'f.db'), randomBytes(32)));
    await replica.replaceAll(policies, new Date().toISOString());
    const plain = (filters: (typeof cases)[number]) =>
      policies
        .filter((x) => !('account' in filters) || x.cspAccountName.toLowerCase() === filters.account!.toLowerCase())
        .filter((x) => !('instanceType' in filters) || x.policyInstance.instanceType === filters.instanceType)
        .filter((x) => !('availabilityZone' in filters) || x.cspRegion.availabilityZoneId === filters.availabilityZone)
        .filter((x) => !('launchFromMs' in filters) || Date.parse(x.capacityConfiguration.launchDateTime) >= filters.launchFromMs!)
        .filter((x) => !('launchToMs' in filters) || Date.parse(x.capacityConfiguration.launchDateTime) < filters.launchToMs!)
        .map((x) => x.cidrId)
        .sort();
    const bySql = cases.map((filters) => replica.query({ ...query, filters, limit: 500 }).rows.map((r) => r.cidrId).sort());
    replica.load();
    cases.forEach((filters, i) => {
      const expected = plain(filters);
      if (i < 4) expect(expected.length, JSON.stringify(filters)).toBeGreaterThan(0);
      expect.soft(bySql[i], `sql ${JSON.stringify(filters)}`).toEqual(expected);
      expect.soft(replica.query({ ...query, filters, limit: 500 }).rows.map((r) => r.cidrId).sort(), `index ${JSON.stringify(filters)}`).toEqual(expected);
    });
    await replica.close();
  });

  it('keeps the policies running at an instant (the rule of launchesLater) alike in SQL and in the index, against a plain scan (cust16)', async () => {
    const seeded = syntheticPolicies(900);
    const active = seeded.filter((x) => x.policyStatus === 'ACTIVE');
    const launches = active.map((x) => Date.parse(x.capacityConfiguration.launchDateTime)).sort((a, b) => a - b);
    const at = launches[Math.floor(launches.length / 2)]!;
    // One active policy whose launch is not known (taken as running), one launching exactly at the instant (running).
    const unknown = { ...active[0]!, capacityConfiguration: { ...active[0]!.capacityConfiguration, launchDateTime: 'not a date' } };
    const policies = seeded.map((x) => (x.cidrId === unknown.cidrId ? unknown : x));
    const expected = policies
      .filter((x) => x.policyStatus === 'ACTIVE' && !launchesLater(Date.parse(x.capacityConfiguration.launchDateTime), at))
      .map((x) => x.cidrId)
      .sort();
    expect(expected).toContain(unknown.cidrId);
    expect(expected.length).toBeGreaterThan(1);
    expect(active.length - expected.length, 'some active policies launch later').toBeGreaterThan(1);
    const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32)));
    await replica.replaceAll(policies, new Date().toISOString());
    const ask = (status?: 'ACTIVE') => replica.query({ ...query, status, filters: { runningAtMs: at }, limit: 500 });
    const bySql = [ask(), ask('ACTIVE')];
    replica.load();
    const byIndex = [ask(), ask('ACTIVE')];
    for (const [where, answer] of [['sql', bySql[0]], ['sql, status active', bySql[1]], ['index', byIndex[0]], ['index, status active', byIndex[1]]] as const) {
      expect.soft(answer!.rows.map((r) => r.cidrId).sort(), where).toEqual(expected);
      expect.soft(answer!.total, where).toBe(expected.length);
    }
    await replica.close();
  });

  it('reads "8 x g5.2xlarge" as that count of that type, alike in SQL and in the index, against a plain scan (cust16)', async () => {
    const policies = syntheticPolicies(900);
    const p = policies[17]!;
    const { qty, instanceType } = p.policyInstance;
    const expected = (status?: string) =>
      policies
        .filter((x) => x.policyInstance.qty === qty && x.policyInstance.instanceType === instanceType && (!status || x.policyStatus === status))
        .map((x) => x.cidrId)
        .sort();
    expect(expected().length).toBeGreaterThan(0);
    // Not the same as the type alone: other counts of it exist.
    expect(policies.some((x) => x.policyInstance.instanceType === instanceType && x.policyInstance.qty !== qty)).toBe(true);
    const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'q.db'), randomBytes(32)));
    await replica.replaceAll(policies, new Date().toISOString());
    const texts = [`${qty} x ${instanceType}`, `${qty}x ${instanceType.toUpperCase()}`, `${qty} ${instanceType}`];
    const ask = (text: string, status?: 'READY_FOR_PURCHASE') => replica.query({ ...query, text, status, limit: 500 });
    const bySql = texts.flatMap((text) => [ask(text), ask(text, 'READY_FOR_PURCHASE')]);
    replica.load();
    const byIndex = texts.flatMap((text) => [ask(text), ask(text, 'READY_FOR_PURCHASE')]);
    texts.forEach((text, i) => {
      for (const [where, answers] of [['sql', bySql], ['index', byIndex]] as const) {
        expect.soft(answers[2 * i]!.rows.map((r) => r.cidrId).sort(), `${where} ${text}`).toEqual(expected());
        expect.soft(answers[2 * i + 1]!.rows.map((r) => r.cidrId).sort(), `${where} ${text}, ready`).toEqual(expected('READY_FOR_PURCHASE'));
      }
    });
    await replica.close();
  });
});
