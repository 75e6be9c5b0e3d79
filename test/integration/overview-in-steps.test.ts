/**
 * The overview counted a statement at a time, the event loop between the statements (issue 25, branch
 * overview11): a launch's first calls are answered while a cold count reads the disk. The figures must still be
 * those of one version of the copy: whatever is written between two steps (each of the copy's write paths) makes
 * the count start again in one piece, so the answer equals a count made after the write.
 */
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { upsertCapacity, writeKind, writeRecord } from '../../electron/services/replica/replica-writes.js';
import { capacityCount, capacityOverview } from '../../electron/services/replica/replica-reads.js';
import { REWRITE_THREAD_FROM_ROWS } from '../../electron/services/replica/capacity-replica-db.js';
import { summarizeCapacities } from '../../electron/services/overview/summarize.js';
import { SAVINGS_STEP_ROWS } from '../../electron/services/overview/replica-overview.js';
import { BENCH_OWNER } from '../../bench/support/bench-current-replica.js';
import { seededCopies } from '../support/seeded-copy.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/** Inside the synthetic policies' dates: the window holds launches, ends and renewals at risk. */
const AS_OF = new Date(Date.UTC(2026, 5, 1));

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Every test starts from these policies written to a copy of its own: written once, copied for each (about 0.45 CPU-s a test saved). */
const seeded = seededCopies(BENCH_OWNER, () => syntheticPolicies(3_000));
afterAll(() => seeded.remove());

/** The seeded copy opened from a folder of the test's own, and the policies it holds. */
async function filled(): Promise<{ replica: Replica; policies: CapacityPolicy[] }> {
  const { dataDir, secrets } = await seeded.copy();
  const replica = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
  cleanup.push(async () => {
    await replica.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { replica, policies: syntheticPolicies(3_000) };
}

/** A policy of another status: each write below moves the status counts, the count's first step. */
function canceled(policy: CapacityPolicy): CapacityPolicy {
  return { ...policy, policyStatus: policy.policyStatus === 'CANCELED' ? 'ACTIVE' : 'CANCELED' };
}

it('lets the event loop run between its statements, and counts what a count in one piece counts', async () => {
  const { replica, policies } = await filled();
  const answeredBetween: number[] = [];
  const stepped = await capacityOverview(replica, AS_OF, async () => {
    // Another read of the copy, answered while the count is under way.
    answeredBetween.push((await capacityCount(replica)) ?? -1);
  });
  expect(answeredBetween.length).toBeGreaterThanOrEqual(5);
  expect(new Set(answeredBetween)).toEqual(new Set([policies.length]));
  expect(stepped).toEqual(summarizeCapacities(policies, AS_OF));
  expect(stepped).toEqual(await capacityOverview(replica, AS_OF));
});

/** Each of the copy's write paths, each changing a policy's status (what the count's first step reads). */
const writes: Record<string, (replica: Replica, policies: CapacityPolicy[]) => Promise<unknown>> = {
  'a write-through of one policy': (replica, policies) => upsertCapacity(replica, canceled(policies[2]!)),
  'a refresh writing the rows that changed': (replica, policies) => writeKind(replica, 'capacities', policies.map((policy, index) => (index === 2 ? canceled(policy) : policy))),
  'a refresh rewriting the whole list on its thread': (replica, policies) =>
    writeKind(replica, 'capacities', policies.map((policy, index) => ({ ...(index === 2 ? canceled(policy) : policy), policyName: `${policy.policyName} again` }))),
  'a refresh rewriting a short list on the main thread': (replica, policies) => writeKind(replica, 'capacities', policies.slice(0, REWRITE_THREAD_FROM_ROWS - 1)),
  'a record written beside a write-through': async (replica, policies) => {
    await writeRecord(replica, 'cyberLists', 'CUSTOMER-1', []);
    await upsertCapacity(replica, canceled(policies[5]!));
  },
  'the copy wiped and synced again with fewer policies': async (replica, policies) => {
    await replica.wipe();
    await writeKind(replica, 'capacities', policies.slice(0, 2_000));
  },
};

it.each(Object.keys(writes))('%s between two of its steps: counted again, as a count after the write', async (kind) => {
  const { replica, policies } = await filled();
  const before = await capacityOverview(replica, AS_OF);
  let between = 0;
  const stepped = await capacityOverview(replica, AS_OF, async () => {
    // After the status counts were read: the first step's figures are those the write changes.
    if (between++ === 0) await writes[kind]!(replica, policies);
  });
  expect(between).toBeGreaterThan(0);
  const after = await capacityOverview(replica, AS_OF);
  expect(after).not.toEqual(before);
  expect(stepped).toEqual(after);
});

it('counts the active policies\' savings a page of rows a step, so a recount after a sync is not one long turn (renew16: 2.7 s at load 39)', async () => {
  const { replica, policies: seededPolicies } = await filled();
  // Every policy active: several pages of them (the seeded list holds a sixth active).
  const policies = seededPolicies.map((policy) => ({ ...policy, policyStatus: 'ACTIVE' }));
  await writeKind(replica, 'capacities', policies);
  const active = policies.length;
  expect(active).toBeGreaterThan(2 * SAVINGS_STEP_ROWS);
  const stepsOf = async () => {
    let steps = 0;
    const summary = await capacityOverview(replica, AS_OF, async () => {
      steps += 1;
    });
    return { steps, summary };
  };
  const recounted = await stepsOf();
  // The count's savings are kept by a write queued after its answer; a record written after it waits for it.
  await writeRecord(replica, 'cyberLists', 'CUSTOMER-1', []);
  const kept = await stepsOf();
  expect(recounted.steps - kept.steps).toBeGreaterThanOrEqual(Math.floor(active / SAVINGS_STEP_ROWS));
  expect(kept.summary).toEqual(recounted.summary);
  expect(recounted.summary).toEqual(summarizeCapacities(policies, AS_OF));
});
