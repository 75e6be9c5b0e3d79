import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOUNTED_STATUSES, keptStatusCounts, replicaOverview } from '../../electron/services/overview/replica-overview.js';
import { summarizeCapacities, type SummaryOptions } from '../../electron/services/overview/summarize.js';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { CapacityReplica } from '../../electron/services/replica/capacity-replica.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { CapacityRow } from '../../shared/api/readers.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/**
 * The overview counted by the replica's database (electron/services/overview/replica-overview.ts)
 * against the row-by-row pass it replaced (summarizeCapacities over the slim rows), on hostile
 * lists: unknown and prototype-named statuses, missing and unreadable dates, instants on the
 * window's edges and shared by many policies, ids that order differently by locale than by code
 * point, non-ASCII and 500-character instance types, missing savings.
 */
const DAY = 86_400_000;
const asOf = new Date(Date.UTC(2026, 5, 1, 12, 30));
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-replica-overview-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const status = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('ACTIVE', 'READY_FOR_PURCHASE') },
  { weight: 2, arbitrary: fc.constantFrom('EXPIRED', 'CANCELED', 'FAILED', 'COMPLETED', 'PAUSED', '__proto__', 'constructor', 'active', '', undefined, 7) },
);
/** The windows the property tries; instants are put on and beside their edges. */
const WINDOWS = [1, 7, 30, 40];
const EDGE_DAYS = [-1, 0, 1, ...WINDOWS.flatMap((days) => [days - 1, days, days + 1])];
/** Instants from asOf: on and beside the window's edges (few values, so many policies share one), and dates that read as not known. */
const instant = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...EDGE_DAYS).map((days) => new Date(asOf.getTime() + days * DAY).toISOString()) },
  { weight: 1, arbitrary: fc.constantFrom(29.999_999, -0.000_001, 2.5).map((days) => new Date(asOf.getTime() + days * DAY).toISOString()) },
  { weight: 1, arbitrary: fc.constantFrom('2026-06-03T17:30:00+05:30', '2026-06-02T00:00:00Z', 'not a date', '', undefined, 12) },
);
const cidrId = fc.oneof(fc.constantFrom('sc_a', 'sc_B', 'sc_b', 'sc_é', 'sc_e', 'sc_10', 'sc_9', '__proto__', 'constructor', '\u202Esc_rtl'), fc.string({ minLength: 1, maxLength: 8 }));
const instanceType = fc.constantFrom('m5.large', 'M5.2xlarge', 'İ5.large', 'ǅ.x', '__proto__.x', 'constructor', '', '.xlarge', 'x'.repeat(500), '\u202Em5.large', undefined, 3);
const savings = fc.oneof(fc.double({ min: -1e6, max: 1e7, noNaN: true }), fc.constantFrom(0.005, 0.015, 1e-9, undefined, 'lots'));
const rawPolicy = fc.record(
  {
    cidrId,
    policyName: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(undefined)),
    policyStatus: status,
    policyInstance: fc.record({ instanceType, qty: fc.integer({ min: 0, max: 20 }) }, { requiredKeys: [] }),
    capacityConfiguration: fc.record(
      { launchDateTime: instant, endDateTime: instant, autoRenewalEnabled: fc.constantFrom(true, false, undefined, 'no') },
      { requiredKeys: [] },
    ),
    pricing: fc.record({ savings, ourPrice: fc.double({ min: 0, max: 1e6, noNaN: true }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['cidrId'] },
);
/** Ids are unique in a list (the replica keeps one row per id), as the service's are. */
const list = fc.uniqueArray(rawPolicy, { minLength: 1, maxLength: 80, selector: (p) => p.cidrId });
const options = fc.record({ windowDays: fc.constantFrom(...WINDOWS), listLimit: fc.integer({ min: 0, max: 10 }), familyLimit: fc.integer({ min: 0, max: 4 }) });

describe('the overview counted by the replica', () => {
  it('equals the row-by-row pass over the slim rows, on hostile lists and options', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'hostile.db'), randomBytes(32));
    try {
      await fc.assert(
        fc.asyncProperty(list, options, async (raws, opts: SummaryOptions) => {
          const rows = raws.flatMap((raw) => {
            const read = CapacityRow.safeParse(raw);
            return read.success ? [read.data] : [];
          });
          const leftOut = [{ index: 3, problems: ['cidrId is missing'] }];
          await db.replaceAll(rows, asOf.toISOString(), leftOut);
          const bySql = db.readWith((connection) => replicaOverview(connection, asOf, db.leftOut, opts));
          expect(bySql).toEqual(summarizeCapacities(db.slimRows(), asOf, opts, leftOut));
        }),
        { numRuns: 150 },
      );
    } finally {
      await db.close();
    }
    // 150 full replaces of an encrypted file, each through the writer thread: a loaded machine takes a minute.
  }, 120_000);

  it('cold, reads no row of the list\'s table to count (EXPLAIN QUERY PLAN: every count is answered by a covering index), only the few milestones it names', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'plans.db'), randomBytes(32));
    try {
      await db.replaceAll(syntheticPolicies(2_000), asOf.toISOString());
      const statements: string[] = [];
      db.readWith((connection) => {
        const recording = new Proxy(connection, {
          get: (target, name) =>
            name === 'prepare'
              ? (sql: string) => {
                  statements.push(sql);
                  return target.prepare(sql);
                }
              : (Reflect.get(target, name) as unknown),
        });
        return replicaOverview(recording, asOf, []);
      });
      expect(statements.length).toBeGreaterThan(5);
      const bind = { from: 0, to: 1, until: 1 };
      const plans = db.readWith((connection) =>
        statements.map((sql) => ({
          sql,
          plan: (connection.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...[bind, ...(sql.match(/\?/g) ?? []).map(() => 0)]) as Array<{ detail: string }>).map((row) => row.detail),
        })),
      );
      // Only the milestones shown by name (at most listLimit) are read from their rows, one by one: their name is in no
      // index. Each by its row id, which the launch and end indexes hold: the table's own key, no other index first.
      const named = plans.filter(({ sql }) => /FROM capacities WHERE (rid|cidr_id) = \?( AND cidr_id = \?)?$/.test(sql));
      const counting = plans.filter((plan) => !named.includes(plan));
      expect(named.length).toBeGreaterThan(0);
      for (const { sql, plan } of named) expect({ sql, plan }).toEqual({ sql, plan: [expect.stringMatching(/^SEARCH capacities USING INTEGER PRIMARY KEY \(rowid=\?\)$/)] });
      expect(counting.length).toBeGreaterThan(4);
      for (const { sql, plan } of counting) {
        for (const detail of plan.filter((d) => /^(SCAN|SEARCH) capacities\b/.test(d))) expect({ sql, detail }).toEqual({ sql, detail: expect.stringMatching(/COVERING INDEX/) });
      }
    } finally {
      await db.close();
    }
  });

  it('names each soonest milestone by its own policy when a rewrite of the list commits between the milestones\' read and their names\' (review13)', async () => {
    // The rewrite thread commits from a thread of its own, and each statement of the count is a read transaction of its
    // own: a rewrite clears the table and numbers its rows again from 1, so a row id read before it named another policy after.
    const file = join(dir, 'renumbered.db');
    const key = randomBytes(32);
    const db = CapacityReplicaDb.open(file, key);
    const rewrite = openKeyed(file, key, 1024);
    try {
      const policies = syntheticPolicies(6).map((policy, i) => ({
        ...policy,
        policyStatus: 'ACTIVE',
        capacityConfiguration: { ...policy.capacityConfiguration, launchDateTime: new Date(asOf.getTime() + (i + 1) * DAY).toISOString() },
      }));
      await db.replaceAll(
        policies.map((policy) => CapacityRow.parse(policy)),
        asOf.toISOString(),
      );
      const columns = (rewrite.prepare(`SELECT name FROM pragma_table_info('capacities') WHERE name <> 'rid'`).pluck().all() as string[]).join(', ');
      let rewritten = false;
      const overview = db.readWith((connection) => {
        const racing = new Proxy(connection, {
          get: (target, name) =>
            name === 'prepare'
              ? (sql: string) => {
                  if (!rewritten && /FROM capacities WHERE (rid|cidr_id) = \?/.test(sql)) {
                    rewritten = true;
                    // The same list, written again in another order (as the rewrite thread does: cleared, then inserted).
                    rewrite.exec(`BEGIN IMMEDIATE; CREATE TEMP TABLE kept AS SELECT * FROM capacities; DELETE FROM capacity_bodies; DELETE FROM capacities;
                      INSERT INTO capacities (${columns}) SELECT ${columns} FROM kept ORDER BY rid DESC; DROP TABLE kept; COMMIT;`);
                  }
                  return target.prepare(sql);
                }
              : (Reflect.get(target, name) as unknown),
        });
        return replicaOverview(racing, asOf, [], { listLimit: 3 });
      });
      expect(rewritten).toBe(true);
      const nameOf = new Map(policies.map((policy) => [policy.cidrId, policy.policyName]));
      expect(overview.upcoming.map((m) => [m.cidrId, m.policyName])).toEqual(policies.slice(0, 3).map((p) => [p.cidrId, nameOf.get(p.cidrId)]));
    } finally {
      rewrite.close();
      await db.close();
    }
  });

  it('makes again, at its open, an overview index an earlier version defined otherwise; an earlier version finds it by name', async () => {
    const file = join(dir, 'earlier-indexes.db');
    const key = randomBytes(32);
    const definition = (connection: ReturnType<typeof openKeyed>, name: string) =>
      connection.prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).pluck().get(name) as string | undefined;
    await CapacityReplicaDb.open(file, key).close();
    // As the version before wrote them: the launch and end indexes without the id.
    const earlier = openKeyed(file, key, 1024);
    try {
      earlier.exec(`DROP INDEX capacities_overview_launch; DROP INDEX capacities_overview_end;
        CREATE INDEX capacities_overview_launch ON capacities (launch_ms, policy_status);
        CREATE INDEX capacities_overview_end ON capacities (end_ms, policy_status, auto_renewal);`);
    } finally {
      earlier.close();
    }
    await CapacityReplicaDb.open(file, key).close();
    const reopened = openKeyed(file, key, 1024);
    try {
      expect(definition(reopened, 'capacities_overview_launch')).toBe('CREATE INDEX capacities_overview_launch ON capacities (launch_ms, policy_status, cidr_id)');
      expect(definition(reopened, 'capacities_overview_end')).toBe('CREATE INDEX capacities_overview_end ON capacities (end_ms, policy_status, auto_renewal, cidr_id)');
      // The earlier version's own statement, run at its open, leaves this version's index in place.
      reopened.exec('CREATE INDEX IF NOT EXISTS capacities_overview_launch ON capacities (launch_ms, policy_status)');
      expect(definition(reopened, 'capacities_overview_launch')).toContain('cidr_id');
    } finally {
      reopened.close();
    }
  });

  it('equals it after write-throughs, with no slim row loaded, at a size with many ties', async () => {
    const policies = syntheticPolicies(3_000);
    const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'synthetic.db'), randomBytes(32)));
    try {
      await replica.replaceAll(policies, asOf.toISOString());
      const at = new Date(Date.UTC(2026, 1, 10));
      expect(replica.loaded).toBe(false);
      const before = replica.overview(at);
      expect(replica.loaded).toBe(false);
      expect(before).toEqual(summarizeCapacities(replica.db.slimRows(), at));
      expect(before.upcoming).toHaveLength(8);
      expect(before.monthlySavings.runningPolicies + before.monthlySavings.launchingLater).toBe(500);
      replica.upsert({ ...policies[10]!, policyStatus: 'ACTIVE', pricing: { ...policies[10]!.pricing, savings: 1234.565 } });
      replica.upsert({ ...policies[0]!, cidrId: 'sc_new', policyStatus: 'LATER_STATUS' });
      const after = replica.overview(at);
      expect(after).toEqual(summarizeCapacities(replica.db.slimRows(), at));
      expect(after.byStatus.at(-1)).toEqual({ status: 'LATER_STATUS', count: 1 });
      expect(after.totalPolicies).toBe(3_001);
    } finally {
      await replica.close();
    }
  });

  it('keeps its counts by status equal to a full recount through a refresh, a purchase, a cancel, a new status, a policy gone, a day change and a reopen', async () => {
    const file = join(dir, 'kept.db');
    const key = randomBytes(32);
    const policies = syntheticPolicies(600);
    let replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
    // The kept rows against the rows themselves, and the overview against the row-by-row pass.
    const expectKeptAsRecounted = (at: Date) => {
      const recounted = replica.db.readWith((c) => c.prepare(RECOUNTED_STATUSES).raw().all() as Array<[string, number, number]>);
      expect(replica.db.readWith(keptStatusCounts)).toEqual(recounted.map(([status, count]) => [status, count]));
      expect(replica.db.count).toBe(recounted.reduce((sum, [, count]) => sum + count, 0));
      expect(replica.overview(at)).toEqual(summarizeCapacities(replica.db.slimRows(), at));
    };
    try {
      expect(replica.db.count).toBe(0);
      await replica.replaceAll(policies, asOf.toISOString());
      expectKeptAsRecounted(asOf);
      // A purchase's write-through: ready to active. The first row of its status, so that status's first row moves.
      const ready = policies.find((p) => p.policyStatus === 'READY_FOR_PURCHASE')!;
      replica.upsert({ ...ready, policyStatus: 'ACTIVE' });
      expectKeptAsRecounted(asOf);
      // A cancel's write-through: active to canceled.
      replica.upsert({ ...policies[0]!, policyStatus: 'CANCELED' });
      expectKeptAsRecounted(asOf);
      // A status no policy had, on a new row and then on an existing one; the last of a status leaves it.
      replica.upsert({ ...policies[1]!, cidrId: 'sc_new', policyStatus: '__proto__' });
      replica.upsert({ ...policies[2]!, policyStatus: 'constructor' });
      replica.upsert({ ...policies[2]!, policyStatus: 'ACTIVE' });
      expectKeptAsRecounted(asOf);
      expect(replica.db.readWith(keptStatusCounts).map(([status]) => status)).not.toContain('constructor');
      // The next day: the counts by status do not depend on it, the window's figures (counted when asked) do.
      expectKeptAsRecounted(new Date(asOf.getTime() + DAY));
      // A refresh with fewer policies, some moved to another account and another status.
      const next = policies.slice(50).map((p, i) => (i % 7 ? p : { ...p, cspAccountName: 'morgan-new', policyStatus: 'EXPIRED' }));
      await replica.replaceAll(next, asOf.toISOString());
      expectKeptAsRecounted(asOf);
      replica.close();
      // Reopened: the counts are read, not recounted; a copy made before them is counted once at its open.
      replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
      expectKeptAsRecounted(asOf);
      replica.close();
      dropKeptCounts(file, key);
      replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
      expectKeptAsRecounted(asOf);
      expect(replica.db.count).toBe(next.length);
    } finally {
      replica.close();
    }
  });

  it('keeps the active policies\' savings as last counted, and counts them again after any write that counts in them (a savings, type or date change, a purchase, a cancel, a refresh, a reopen)', async () => {
    const file = join(dir, 'kept-savings.db');
    const key = randomBytes(32);
    const policies = syntheticPolicies(600);
    let replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
    // Counted afresh: what the next overview may take as kept (the launch's case), and the figures equal the row-by-row pass.
    const count = () => {
      let counted = false;
      const figures = replica.overview(asOf, (savings) => {
        counted = true;
        replica.keepOverviewSavings(savings);
      });
      expect(figures).toEqual(summarizeCapacities(replica.db.slimRows(), asOf));
      return counted;
    };
    const expectCountedThenKept = () => {
      expect(count()).toBe(true);
      expect(count()).toBe(false);
    };
    const active = (at: number) => policies.filter((p) => p.policyStatus === 'ACTIVE')[at]!;
    try {
      await replica.replaceAll(policies, asOf.toISOString());
      expectCountedThenKept();
      // A refresh in which only an active policy is gone: its row deleted, nothing else written.
      await replica.replaceAll(policies.filter((p) => p !== active(5)), asOf.toISOString());
      expectCountedThenKept();
      // A write-through that changes only an active policy's savings, then its type, then its end.
      replica.upsert({ ...active(0), pricing: { ...active(0).pricing, savings: 123_456.789 } });
      expectCountedThenKept();
      replica.upsert({ ...active(1), policyInstance: { ...active(1).policyInstance, instanceType: '__proto__.xlarge' } });
      expectCountedThenKept();
      replica.upsert({ ...active(2), capacityConfiguration: { ...active(2).capacityConfiguration, endDateTime: new Date(asOf.getTime() + 3 * DAY).toISOString() } });
      expectCountedThenKept();
      // A purchase (ready to active), a cancel (active to canceled), a new active policy.
      replica.upsert({ ...policies.find((p) => p.policyStatus === 'READY_FOR_PURCHASE')!, policyStatus: 'ACTIVE' });
      expectCountedThenKept();
      replica.upsert({ ...active(3), policyStatus: 'CANCELED' });
      expectCountedThenKept();
      replica.upsert({ ...active(4), cidrId: 'sc_new_active' });
      expectCountedThenKept();
      // A write that does not count in them (an expired policy renamed) keeps them.
      replica.upsert({ ...policies.find((p) => p.policyStatus === 'EXPIRED')!, policyName: 'renamed' });
      expect(count()).toBe(false);
      // A refresh with some moved to another status.
      const next = policies.slice(50).map((p, i) => (i % 7 ? p : { ...p, policyStatus: 'EXPIRED' }));
      await replica.replaceAll(next, asOf.toISOString());
      expectCountedThenKept();
      // A refresh in which every policy's savings changed: the whole list rewritten, its row triggers paused.
      await replica.replaceAll(policies.map((p) => ({ ...p, pricing: { ...p.pricing, savings: 2 * ((p.pricing?.savings as number | undefined) ?? 1) } })), asOf.toISOString());
      expectCountedThenKept();
      // Reopened: taken as kept; kept sums that do not read (another version's) are counted again.
      replica.close();
      replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
      expect(count()).toBe(false);
      replica.close();
      const connection = openKeyed(file, key, 1024);
      try {
        connection.exec(`UPDATE overview_savings SET tally = '{"total":"lots"}'`);
      } finally {
        connection.close();
      }
      replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
      expectCountedThenKept();
    } finally {
      replica.close();
    }
  });

  it('counts the kept savings again when its "now" passes an active policy\'s launch, with no write (a day boundary, a clock set back), and sums only the running ones (savings15)', async () => {
    const file = join(dir, 'kept-savings-now.db');
    const replica = new CapacityReplica(CapacityReplicaDb.open(file, randomBytes(32)));
    const policies = syntheticPolicies(600);
    const launchesOf = (p: CapacityRow) => Date.parse(p.capacityConfiguration?.launchDateTime ?? '');
    const activeLaunches = policies.filter((p) => p.policyStatus === 'ACTIVE').map(launchesOf).filter(Number.isFinite);
    const next = Math.min(...activeLaunches.filter((ms) => ms > asOf.getTime()));
    const figuresAt = (at: Date) => {
      let counted = false;
      const figures = replica.overview(at, (savings) => {
        counted = true;
        replica.keepOverviewSavings(savings);
      });
      expect(figures).toEqual(summarizeCapacities(replica.db.slimRows(), at));
      return { figures, counted };
    };
    try {
      await replica.replaceAll(policies, asOf.toISOString());
      const today = figuresAt(asOf);
      expect(today.counted).toBe(true);
      // The seeded list holds both kinds: the running ones summed, those launching later said apart.
      expect(today.figures.monthlySavings.runningPolicies).toBeGreaterThan(0);
      expect(today.figures.monthlySavings.launchingLater).toBeGreaterThan(0);
      expect(today.figures.monthlySavings.runningPolicies + today.figures.monthlySavings.launchingLater).toBe(policies.filter((p) => p.policyStatus === 'ACTIVE').length);
      // Later the same day, before the next launch: the kept tally holds.
      expect(figuresAt(new Date(next - 1)).counted).toBe(false);
      // The next launch passed, nothing written: counted again, one more running.
      const launched = figuresAt(new Date(next));
      expect(launched.counted).toBe(true);
      expect(launched.figures.monthlySavings.runningPolicies).toBeGreaterThan(today.figures.monthlySavings.runningPolicies);
      expect(figuresAt(new Date(next + DAY / 2)).counted).toBe(false);
      // The clock set back before that launch: counted again, the launched one is "later" again.
      const back = figuresAt(asOf);
      expect(back.counted).toBe(true);
      expect(back.figures.monthlySavings).toEqual(today.figures.monthlySavings);
    } finally {
      replica.close();
    }
  });
});

/** A copy as the version before the kept counts wrote it: no table, no triggers. */
function dropKeptCounts(file: string, key: Buffer): void {
  const connection = openKeyed(file, key, 1024);
  try {
    connection.exec('DROP TRIGGER overview_status_insert; DROP TRIGGER overview_status_delete; DROP TRIGGER overview_status_update; DROP TABLE overview_status;');
  } finally {
    connection.close();
  }
}
