/**
 * The worklist's read of what launches or ends soon is kept per reading
 * connection until a commit (replica-upcoming.ts): a second opening, its next
 * pages, the reminders and the calendar are answered without SQL. What is
 * kept must never outlive what it was read from: a full refresh (another
 * connection's commit), a write-through of one policy, a copy in memory
 * (one connection writes and reads); and the account manager's entries are
 * joined afresh on every answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { WorklistEntry } from '../../shared/ipc/worklist.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { upcomingCapacities } from '../../electron/services/replica/replica-reads.js';
import { upsertCapacity, writeKind } from '../../electron/services/replica/replica-writes.js';
import { RenewalWorklist } from '../../electron/services/worklist/renewal-worklist.js';
import type { WorklistStates } from '../../electron/services/worklist/worklist-states.js';
import { BENCH_OWNER, benchCurrentReplica } from '../../bench/support/bench-current-replica.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const DAY_MS = 86_400_000;
/** Inside the synthetic policies' dates: each horizon holds some of them. */
const NOW = Date.UTC(2026, 9, 1);

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function replicaWith(secrets: SecretStore, policies: CapacityPolicy[]): Promise<Replica> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-worklist-cache-'));
  const replica = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
  cleanup.push(async () => {
    await replica.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  await writeKind(replica, 'capacities', policies);
  return replica;
}

/** The ids the worklist's read answers for (from, to], in its order. */
async function upcomingIds(replica: Replica, fromMs: number, toMs: number): Promise<string[]> {
  return ((await upcomingCapacities(replica, fromMs, toMs, () => []))?.upcoming ?? []).map((policy) => policy.cidrId);
}

/** The same rule computed over the records themselves, soonest end first (then the order written, as rid). */
function expectedIds(policies: readonly CapacityPolicy[], fromMs: number, toMs: number): string[] {
  const within = (at: string | undefined) => {
    const ms = Date.parse(at ?? '');
    return ms > fromMs && ms <= toMs;
  };
  return policies
    .map((policy, rid) => ({ policy, rid, end: Date.parse(policy.capacityConfiguration?.endDateTime ?? '') }))
    .filter(
      ({ policy }) =>
        (within(policy.capacityConfiguration?.launchDateTime) && (policy.policyStatus === 'READY_FOR_PURCHASE' || policy.policyStatus === 'ACTIVE')) ||
        (within(policy.capacityConfiguration?.endDateTime) && policy.policyStatus === 'ACTIVE'),
    )
    .sort((a, b) => a.end - b.end || a.rid - b.rid)
    .map(({ policy }) => policy.cidrId);
}

/** One policy ending within the first days of the horizon: an active one, made to end in `days`. */
function endingIn(policy: CapacityPolicy, days: number): CapacityPolicy {
  const end = new Date(NOW + days * DAY_MS).toISOString();
  return { ...policy, policyStatus: 'ACTIVE', capacityConfiguration: { ...policy.capacityConfiguration!, launchDateTime: new Date(NOW - 10 * DAY_MS).toISOString(), endDateTime: end } };
}

describe.each([
  ['on disk (the refresh writes on another connection: the commit counter in the file)', () => new FixedSecretStore()],
  ['in memory (one connection writes and reads: the same counter)', () => new MemorySecretStore('No keychain in this test.')],
])('the worklist’s upcoming policies, kept between reads, %s', (_, secrets) => {
  it('answers a window inside the last one read exactly as a fresh read would, at a later now too', async () => {
    const policies = syntheticPolicies(3_000);
    const replica = await replicaWith(secrets(), policies);
    expect(await upcomingIds(replica, NOW, NOW + 90 * DAY_MS)).toEqual(expectedIds(policies, NOW, NOW + 90 * DAY_MS));
    // Narrower horizons and a later now (the view asked again an hour on), from what was read.
    for (const [from, days] of [[NOW, 30], [NOW, 7], [NOW + 3_600_000, 30], [NOW + 5 * DAY_MS, 60]] as const) {
      expect(await upcomingIds(replica, from, from + days * DAY_MS)).toEqual(expectedIds(policies, from, from + days * DAY_MS));
    }
  });

  it('is read again after a full refresh: a policy gone, one canceled and one newly ending show at once', async () => {
    const policies = syntheticPolicies(3_000);
    const replica = await replicaWith(secrets(), policies);
    const before = await upcomingIds(replica, NOW, NOW + 30 * DAY_MS);
    expect(before.length).toBeGreaterThan(10);
    // Asked twice, so the second answer came from what was kept.
    expect(await upcomingIds(replica, NOW, NOW + 30 * DAY_MS)).toEqual(before);

    const gone = before[0];
    const canceled = before[1];
    const outside = policies.find((policy) => !before.includes(policy.cidrId))!;
    const refreshed = policies
      .filter((policy) => policy.cidrId !== gone)
      .map((policy) => (policy.cidrId === canceled ? { ...policy, policyStatus: 'CANCELED' } : policy.cidrId === outside.cidrId ? endingIn(policy, 2) : policy));
    await writeKind(replica, 'capacities', refreshed);

    const after = await upcomingIds(replica, NOW, NOW + 30 * DAY_MS);
    expect(after).toEqual(expectedIds(refreshed, NOW, NOW + 30 * DAY_MS));
    expect(after).not.toContain(gone);
    expect(after).not.toContain(canceled);
    expect(after).toContain(outside.cidrId);
  });

  it('is read again after a write-through of one policy (a cancel’s answer)', async () => {
    const policies = syntheticPolicies(3_000);
    const replica = await replicaWith(secrets(), policies);
    const before = await upcomingIds(replica, NOW, NOW + 30 * DAY_MS);
    const canceled = policies.find((policy) => policy.cidrId === before[0])!;
    expect(await upsertCapacity(replica, { ...canceled, policyStatus: 'CANCELED' })).toBe(true);
    expect(await upcomingIds(replica, NOW, NOW + 30 * DAY_MS)).toEqual(before.slice(1));
  });
});

describe('the worklist over what is kept', () => {
  it('joins the account manager’s entries afresh: a state changed after an answer shows in the next one, counts and filter too', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cd-worklist-cache-'));
    const secrets = new FixedSecretStore();
    const writer = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
    await writeKind(writer, 'capacities', syntheticPolicies(3_000));
    await writer.close();
    const replica = benchCurrentReplica(dataDir, secrets);
    cleanup.push(async () => {
      await (await replica.replica())?.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    const entries = new Map<string, WorklistEntry>();
    const states: WorklistStates = {
      all: () => Promise.resolve(new Map(entries)),
      update: (cidrId, change) => {
        const entry: WorklistEntry = { state: 'to-do', note: '', snoozedUntil: null, ...entries.get(cidrId), ...change, updatedAt: new Date(NOW).toISOString() } as WorklistEntry;
        entries.set(cidrId, entry);
        return Promise.resolve(entry);
      },
    };
    const worklist = new RenewalWorklist({ replica, states, now: () => new Date(NOW) });

    const first = await worklist.query({ horizonDays: 30, limit: 10 });
    const cidrId = first.rows[0]!.policy.cidrId;
    expect(first.stateCounts.handled).toBe(0);
    await worklist.setEntry({ cidrId, state: 'handled' });

    const handled = await worklist.query({ horizonDays: 30, states: ['handled'], limit: 10 });
    expect(handled.rows.map((row) => [row.policy.cidrId, row.entry?.state])).toEqual([[cidrId, 'handled']]);
    expect(handled.stateCounts.handled).toBe(1);
    expect(handled.stateCounts['to-do']).toBe(first.stateCounts['to-do'] - 1);

    await worklist.setEntry({ cidrId, snoozedUntil: '2026-12-01' });
    const snoozed = await worklist.query({ horizonDays: 30, limit: 10 });
    expect(snoozed.total).toBe(first.total - 1);
    expect(snoozed.rows.map((row) => row.policy.cidrId)).not.toContain(cidrId);
  });
});
