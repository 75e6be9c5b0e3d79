/**
 * The overview by customer's per-account totals added a step of slim rows at a time (issue 25, branch stall17): at
 * 100,000 rows the one pass was a turn of 74-110 ms of the main thread after every refresh (keystroke-refresh's
 * tracer). The event loop turns between the steps, and the answer is still that of one version of the rows: a
 * write between two steps makes the count begin again.
 */
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { TOTALS_STEP_ROWS } from '../../electron/services/replica/capacity-replica.js';
import { upsertCapacity } from '../../electron/services/replica/replica-writes.js';
import { capacityTotalsByAccount } from '../../electron/services/replica/replica-reads.js';
import type { AccountTotals } from '../../electron/services/customers/account-totals.js';
import { BENCH_OWNER } from '../../bench/support/bench-current-replica.js';
import { seededCopies } from '../support/seeded-copy.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/** Inside the synthetic policies' dates: some active policies run, some launch later. */
const AS_OF = new Date(Date.UTC(2026, 5, 1));
/** Enough rows for three steps. */
const POLICIES = TOTALS_STEP_ROWS * 2 + 500;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const seeded = seededCopies(BENCH_OWNER, () => syntheticPolicies(POLICIES));
afterAll(() => seeded.remove());

async function filled(): Promise<{ replica: Replica; policies: CapacityPolicy[] }> {
  const { dataDir, secrets } = await seeded.copy();
  const replica = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
  cleanup.push(async () => {
    await replica.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { replica, policies: syntheticPolicies(POLICIES) };
}

/** A month's share of an amount over the policy's window (the customer page's rule, written out here, not the app's code). */
function month(policy: CapacityPolicy, amount: number | undefined): number {
  const launch = Date.parse(policy.capacityConfiguration?.launchDateTime ?? '');
  const days = (Date.parse(policy.capacityConfiguration?.endDateTime ?? '') - launch) / 86_400_000;
  const value = amount ?? 0;
  return Number.isFinite(days) && days > 0 ? value * Math.min(1, 30 / days) : value;
}

/** The totals over all accounts, from the policies themselves: every active one, the month's spend and savings of the running ones. */
function summed(policies: readonly CapacityPolicy[]) {
  const active = policies.filter((p) => p.policyStatus === 'ACTIVE');
  const running = active.filter((p) => !(Date.parse(p.capacityConfiguration?.launchDateTime ?? '') > AS_OF.getTime()));
  return {
    active: active.length,
    monthlySpend: running.reduce((sum, p) => sum + month(p, p.pricing?.ourPrice), 0),
    monthlySavings: running.reduce((sum, p) => sum + month(p, p.pricing?.savings), 0),
  };
}

function overAll(totals: ReadonlyMap<string, AccountTotals> | null) {
  const all = { active: 0, monthlySpend: 0, monthlySavings: 0 };
  for (const t of totals?.values() ?? []) {
    all.active += t.active;
    all.monthlySpend += t.monthlySpend;
    all.monthlySavings += t.monthlySavings;
  }
  return all;
}

function expectTotals(totals: ReadonlyMap<string, AccountTotals> | null, policies: readonly CapacityPolicy[]) {
  const all = overAll(totals);
  const expected = summed(policies);
  expect(all.active).toBe(expected.active);
  expect(all.monthlySpend).toBeCloseTo(expected.monthlySpend, 2);
  expect(all.monthlySavings).toBeCloseTo(expected.monthlySavings, 2);
}

it('lets the event loop run between steps of rows, and counts what the policies add up to', async () => {
  const { replica, policies } = await filled();
  let turns = 0;
  const totals = await capacityTotalsByAccount(replica, AS_OF, async () => {
    turns += 1;
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
  // Three steps, two turns between them (none in one piece).
  expect(turns).toBe(2);
  expect(summed(policies).active).toBeGreaterThan(0);
  expectTotals(totals, policies);
  // The same as the count in one piece, account by account.
  const open = await replica.opened();
  expect(totals).toEqual(open?.totalsByAccount(AS_OF));
});

it('counts again when a policy is written through between two steps: the answer is the copy after the write', async () => {
  const { replica, policies } = await filled();
  const open = await replica.opened();
  await replica.loadRows(open!);
  // An active policy among the first step's rows: already added when the write lands.
  const counted = open!.load().slice(0, TOTALS_STEP_ROWS).find((row) => row.policyStatus === 'ACTIVE');
  const policy = policies.find((p) => p.cidrId === counted?.cidrId);
  expect(policy).toBeDefined();
  const cancelled = { ...policy!, policyStatus: 'CANCELED' } as CapacityPolicy;
  let turns = 0;
  const totals = await capacityTotalsByAccount(replica, AS_OF, async () => {
    turns += 1;
    if (turns === 1) expect(await upsertCapacity(replica, cancelled)).toBe(true);
  });
  expectTotals(totals, policies.map((p) => (p.cidrId === cancelled.cidrId ? cancelled : p)));
  // The first count was left at the write, the second ran whole: 1 + 2 turns.
  expect(turns).toBe(3);
});
