/**
 * The worklist's answers kept in memory (kept-windows.ts, issue 28): asked
 * again with nothing changed, the very answer kept is given (no read, no
 * join); and never once anything it was made from has changed: a refresh of
 * the copy, a write-through of one policy, an entry the account manager saved
 * (real own data), another customer book, the clock moving a policy into
 * or out of the window, and the day snoozes are counted against. The same for
 * the view's opening answer made ahead (`prepareOpening`, after a refresh or the
 * launch's first screen) as for one a query made.
 */
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { WORKLIST_OPENING, localDay, type ParsedWorklistQuery, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { OwnDataStore } from '../../electron/services/own-data/own-data-store.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import type { OwnDataService } from '../../electron/services/own-data/own-data-service.js';
import { type Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import type { CurrentReplicaDeps } from '../../electron/services/replica/current-replica.js';
import { storedHashes, upsertCapacity, writeCapacityChanges, writeKind, writeRecord } from '../../electron/services/replica/replica-writes.js';
import { ListedAgainstStored } from '../../electron/services/replica/listed-against-stored.js';
import { capacityOverview, copyState } from '../../electron/services/replica/replica-reads.js';
import { LOG_CHECKPOINT_BYTES, REWRITE_THREAD_FROM_ROWS } from '../../electron/services/replica/capacity-replica-db.js';
import type { CustomerNamer, CustomerOfPolicy } from '../../electron/services/worklist/customer-of.js';
import { RenewalWorklist } from '../../electron/services/worklist/renewal-worklist.js';
import { worklistStatesIn, type WorklistStates } from '../../electron/services/worklist/worklist-states.js';
import { BENCH_OWNER, benchCurrentReplica } from '../../bench/support/bench-current-replica.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { seededCopies } from '../support/seeded-copy.js';

const DAY_MS = 86_400_000;
/** Inside the synthetic policies' dates: each horizon holds some of them. */
const NOW = Date.UTC(2026, 9, 1);

/** When the first policy ends: 30 days and 7 h 13 min after NOW. */
const ENTERS_AT = NOW + 30 * DAY_MS + (7 * 60 + 13) * 60_000;

/** When the second policy ends: 20 minutes after NOW (inside the hour an answer may be kept). */
const LEAVES_AT = NOW + 20 * 60_000;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** One policy ends at an odd minute just past the 30 days, another 20 minutes from NOW, when nothing else launches or ends. */
const seededPolicies = () => syntheticPolicies(3_000).map((policy, index) => (index === 0 ? endingAt(policy, ENTERS_AT) : index === 1 ? endingAt(policy, LEAVES_AT) : policy));
/** Every test starts from these policies written to a copy of its own: written once, copied for each. */
const seeded = seededCopies(BENCH_OWNER, seededPolicies);
afterAll(() => seeded.remove());

interface Setup {
  readonly worklist: RenewalWorklist;
  readonly replica: Replica;
  readonly policies: CapacityPolicy[];
  /** The copy's file and its key, for a connection of the test's own. */
  readonly file: string;
  readonly key: Buffer;
  /** The account manager's entries as the worklist reads them (real own data). */
  readonly states: WorklistStates;
  /** The clock the worklist reads. */
  now: number;
  /** The customer namer the worklist is given. */
  namer: CustomerOfPolicy;
  /** A worklist over the same parts with nothing kept: what a kept answer must equal. */
  fresh(): RenewalWorklist;
}

/** `more`: deps of the replica a test sets (as the app's composition root would). */
async function setUp(more: Partial<CurrentReplicaDeps> = {}): Promise<Setup> {
  const { dataDir, secrets } = await seeded.copy();
  const policies = seededPolicies();
  const current = benchCurrentReplica(dataDir, secrets, more);
  const own = await OwnDataStore.open({ dataDir, secrets, owner: BENCH_OWNER });
  cleanup.push(async () => {
    await (await current.replica())?.close();
    await own.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const ownData = { records: (kind, schema) => Promise.resolve(own.records(kind, schema)) } as Pick<OwnDataService, 'records'>;
  const replica = (await current.replica())!;
  const key = Buffer.from((await secrets.get(replicaKeyService(BENCH_OWNER.profileId), BENCH_OWNER.username))!, 'base64');
  const customerOf: CustomerNamer = () => Promise.resolve(setup.namer);
  const states = worklistStatesIn(ownData);
  const deps = { replica: current, states, customerOf, now: () => new Date(setup.now) };
  const setup: Setup = {
    worklist: new RenewalWorklist(deps),
    fresh: () => new RenewalWorklist(deps),
    replica,
    policies,
    states,
    file: join(replica.dir, 'replica.db'),
    key,
    now: NOW,
    namer: () => null,
  };
  return setup;
}

const ids = (window: WorklistWindow) => window.rows.map((row) => row.policy.cidrId);
/** What the Renewals view asks as it opens (its store's first query, normalised as the channel's input is). */
const first: ParsedWorklistQuery = { horizonDays: 30, states: [], customer: null, includeSnoozed: false, offset: 0, limit: 100, mayStillCount: false };

/** The first answer kept: asked by the view, or made ahead by the main process before any click. */
const madeBy = {
  'a query': (app: Setup) => app.worklist.query(first),
  'made ahead': (app: Setup) => app.worklist.prepareOpening(),
};

it('the answer made ahead is the one the view opens on', () => {
  expect(WORKLIST_OPENING).toEqual(first);
});

describe.each(Object.keys(madeBy) as Array<keyof typeof madeBy>)('the worklist’s kept answers, %s', (how) => {
  const keepFirst = madeBy[how];
  it('are given again, the very answer, while nothing changed (a later now too, inside every policy’s place)', async () => {
    const app = await setUp();
    const answer = await keepFirst(app);
    expect(answer.rows.length).toBe(100);
    expect(await app.worklist.query(first)).toBe(answer);
    app.now = NOW + 1_000;
    expect(await app.worklist.query(first)).toBe(answer);
    // Another filter is its own answer; the first is still kept.
    const handled = await app.worklist.query({ ...first, states: ['handled'] });
    expect(handled.total).toBe(0);
    expect(await app.worklist.query(first)).toBe(answer);
  });

  it('are made again after a refresh of the copy: a canceled policy leaves at once', async () => {
    const app = await setUp();
    const before = ids(await keepFirst(app));
    const canceled = before[0]!;
    await writeKind(app.replica, 'capacities', app.policies.map((policy) => (policy.cidrId === canceled ? { ...policy, policyStatus: 'CANCELED' } : policy)));
    const after = await app.worklist.query(first);
    expect(ids(after)).not.toContain(canceled);
    expect(ids(after)[0]).toBe(before[1]);
  });

  it('outlive the truncating checkpoint of the refresh they were made after (the log emptied once they are kept)', async () => {
    // No first screen: the background check of every page, whose reads would hold the log too, never starts.
    const app = await setUp({ afterFirstScreen: () => new Promise<void>(() => undefined) });
    // A reader's snapshot from before the refresh keeps it in the log: the refresh's own checkpoint can neither
    // fold nor empty the log until the snapshot ends, which the test decides.
    const reader = openKeyed(app.file, app.key, 1024);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM meta').get();
    const release = () => {
      if (!reader.open) return;
      reader.exec('ROLLBACK');
      reader.close();
    };
    cleanup.push(async () => release());
    // Every row changed: the whole list is rewritten, on the rewrite thread (a file, and this many rows).
    expect(app.policies.length).toBeGreaterThanOrEqual(REWRITE_THREAD_FROM_ROWS);
    await writeKind(app.replica, 'capacities', app.policies.map((policy) => shifted(policy, 60_000)));
    await app.replica.settled();
    expect(statSync(`${app.file}-wal`).size).toBeGreaterThan(LOG_CHECKPOINT_BYTES);
    const made = await keepFirst(app);
    release();
    // The overview's tally is kept by a commit that moves no row and, the log being this long, asks for a
    // checkpoint (as the app's every checkpoint is asked): the refresh is folded and the log emptied now.
    expect(await capacityOverview(app.replica, new Date(app.now))).not.toBeNull();
    await app.replica.writing(async () => undefined);
    await app.replica.settled();
    expect(statSync(`${app.file}-wal`).size).toBe(0);
    // The same rows: the very answer, not made again.
    expect(await app.worklist.query(first)).toBe(made);
  });

  it('are made again after a write-through of one policy (a cancel’s answer)', async () => {
    const app = await setUp();
    const before = await keepFirst(app);
    const canceled = app.policies.find((policy) => policy.cidrId === ids(before)[0])!;
    expect(await upsertCapacity(app.replica, { ...canceled, policyStatus: 'CANCELED' })).toBe(true);
    const after = await app.worklist.query(first);
    expect(ids(after)).toEqual(ids(before).slice(1).concat(ids(after).slice(99)));
    expect(after.total).toBe(before.total - 1);
  });

  it('freeze what is their own only: the account manager’s entries they show, shared with every answer made from them, stay as they were', async () => {
    const app = await setUp();
    const cidrId = ids(await app.worklist.query(first))[3]!;
    await app.worklist.setEntry({ cidrId, state: 'contacted', note: 'Called them' });
    const kept = await keepFirst(app);
    expect(kept.rows[3]!.entry).toMatchObject({ state: 'contacted', note: 'Called them' });
    expect(Object.isFrozen(kept.rows[3]!.entry)).toBe(true);
    // The same entries answer every query until one changes: the map read for the kept answer, and a longer page
    // (never kept) made from it.
    const shared = (await app.states.all()).get(cidrId)!;
    expect(Object.isFrozen(shared)).toBe(false);
    const longer = await app.worklist.query({ ...first, limit: 300 });
    expect(longer.rows[3]!.entry).toEqual(kept.rows[3]!.entry);
    expect(Object.isFrozen(longer.rows[3]!.entry)).toBe(false);
  });

  it('are made again after the account manager saved an entry (own data): the note shows at once, the counts too', async () => {
    const app = await setUp();
    const before = await keepFirst(app);
    const cidrId = ids(before)[3]!;
    await app.worklist.setEntry({ cidrId, state: 'contacted', note: 'Called them' });
    const after = await app.worklist.query(first);
    expect(after.rows[3]!.entry).toMatchObject({ state: 'contacted', note: 'Called them' });
    expect(after.stateCounts.contacted).toBe(before.stateCounts.contacted + 1);
  });

  it('are made again with another customer book (another namer)', async () => {
    const app = await setUp();
    const before = await keepFirst(app);
    expect(before.rows[0]!.customer).toBeNull();
    app.namer = () => 'Morgan Analytics';
    const after = await app.worklist.query(first);
    expect(after.rows[0]!.customer).toBe('Morgan Analytics');
    expect(after.customers).toEqual(['Morgan Analytics']);
  });

  it('are made again once the clock takes a policy out of the window or brings the next one in', async () => {
    const app = await setUp();
    const before = await keepFirst(app);
    // The soonest end reached: that policy has ended and leaves.
    expect(before.rows[0]!.policy.cidrId).toBe(app.policies[1]!.cidrId);
    app.now = LEAVES_AT - 1;
    expect(await app.worklist.query(first)).toBe(before);
    app.now = LEAVES_AT;
    const passed = await app.worklist.query(first);
    expect(ids(passed)).not.toContain(app.policies[1]!.cidrId);
    expect(passed.total).toBe(before.total - 1);
    expect(passed).toEqual(await app.fresh().query(first));

    // A policy ending just past the 30 days comes in once now + 30 days reaches its end, and nothing else moves then.
    app.now = ENTERS_AT - 30 * DAY_MS - 1;
    const justBefore = await app.worklist.query(first);
    app.now = ENTERS_AT - 30 * DAY_MS;
    const entered = await app.worklist.query(first);
    expect(entered.total).toBe(justBefore.total + 1);
    expect(entered).toEqual(await app.fresh().query(first));
  });

  it('are made again once the local day changes: a policy snoozed until the new day comes back', async () => {
    const app = await setUp();
    // The synthetic policies launch and end at UTC midnights: six hours later, a local midnight (only the day) is quiet.
    const later = app.policies.map((policy) => shifted(policy, 6 * 3_600_000));
    await writeKind(app.replica, 'capacities', later);
    // Not waiting for the rewrite's truncating checkpoint: it moves no row, so the answers kept below outlive it
    // whenever it ends (with SQLite's data_version as the copy's version they did not: CI, load 20).
    // Ten minutes before a local midnight at which no policy launches or ends (only the day changes then).
    const midnight = quietMidnight(later);
    app.now = midnight - 10 * 60_000;
    const open = await app.worklist.query(first);
    const snoozed = ids(open)[0]!;
    await app.worklist.setEntry({ cidrId: snoozed, snoozedUntil: localDay(midnight) });
    const before = await keepFirst(app);
    expect(ids(before)).not.toContain(snoozed);
    app.now = midnight - 1;
    expect(await app.worklist.query(first)).toBe(before);
    app.now = midnight;
    const after = await app.worklist.query(first);
    expect(ids(after)[0]).toBe(snoozed);
    expect(after).toEqual(await app.fresh().query(first));
  });
});

/** The first local midnight after NOW with no launch or end from ten minutes before it to an hour after. */
function quietMidnight(policies: readonly CapacityPolicy[]): number {
  const milestones = policies.flatMap((policy) =>
    [policy.capacityConfiguration?.launchDateTime, policy.capacityConfiguration?.endDateTime].flatMap((at) => (at ? [Date.parse(at)] : [])),
  );
  const start = new Date(NOW);
  for (let day = 1; day < 60; day += 1) {
    const midnight = new Date(start.getFullYear(), start.getMonth(), start.getDate() + day).getTime();
    if (!milestones.some((at) => at > midnight - 10 * 60_000 && at <= midnight + 3_600_000)) return midnight;
  }
  throw new Error('no quiet midnight in the synthetic policies');
}

function shifted(policy: CapacityPolicy, byMs: number): CapacityPolicy {
  const configuration = policy.capacityConfiguration!;
  const at = (iso: string | null | undefined) => (iso ? new Date(Date.parse(iso) + byMs).toISOString() : iso);
  return { ...policy, capacityConfiguration: { ...configuration, launchDateTime: at(configuration.launchDateTime)!, endDateTime: at(configuration.endDateTime)! } };
}

it('the opening made ahead outlives the overview’s savings tally kept with the copy (no policy changed), not a write after it', async () => {
  const app = await setUp();
  const made = await app.worklist.prepareOpening();
  expect(await capacityOverview(app.replica, new Date(app.now))).not.toBeNull();
  // The tally is kept by a write in the writes' queue after the overview's answer: let it land.
  await app.replica.writing(async () => undefined);
  expect(await app.worklist.query(first)).toBe(made);
  // A policy written through after it still makes the answer again.
  const canceled = app.policies.find((policy) => policy.cidrId === ids(made)[0])!;
  expect(await upsertCapacity(app.replica, { ...canceled, policyStatus: 'CANCELED' })).toBe(true);
  expect(ids(await app.worklist.query(first))).not.toContain(canceled.cidrId);
});

/** Every kind of write of the capacity list, each done over the setup's copy of 3,000 policies. */
const writes: Record<string, (app: Setup) => Promise<unknown>> = {
  'a write-through of one policy': (app) => upsertCapacity(app.replica, { ...app.policies[2]!, policyName: 'Renamed' }),
  'a refresh writing the rows that changed': (app) => writeKind(app.replica, 'capacities', app.policies.map((policy, index) => (index === 2 ? { ...policy, policyName: 'Renamed' } : policy))),
  'a refresh rewriting the whole list on its thread': (app) => writeKind(app.replica, 'capacities', app.policies.map((policy) => shifted(policy, 60_000))),
  'a refresh rewriting a short list on the main thread': (app) => writeKind(app.replica, 'capacities', app.policies.slice(0, REWRITE_THREAD_FROM_ROWS - 1)),
  // stall12's refresh over the copy (its pages compared with the stored hashes as they came): the path every
  // refresh of a copy that holds a list takes in the app (review12: it moved the file's counter only, not the list's).
  'a refresh from pages compared as they came, writing the rows that changed': (app) =>
    refreshComparedAsPagesCame(app, app.policies.map((policy, index) => (index === 2 ? { ...policy, policyName: 'Renamed' } : policy))),
  'the copy wiped and synced again (the same policies)': async (app) => {
    await app.replica.wipe();
    await writeKind(app.replica, 'capacities', app.policies);
  },
};

it.each(Object.keys(writes))('%s: the list’s version moves and no answer kept before it is given again', async (kind) => {
  const app = await setUp();
  const made = await app.worklist.prepareOpening();
  const before = (await copyState(app.replica))!;
  await writes[kind]!(app);
  const after = (await copyState(app.replica))!;
  expect(after.copy !== before.copy || after.version !== before.version).toBe(true);
  const again = await app.worklist.query(first);
  expect(again).not.toBe(made);
  expect(again).toEqual(await app.fresh().query(first));
});

/** The records a sync writes after the list (renew12): the list's rows stay as they were. */
const recordWrites: Record<string, (app: Setup) => Promise<unknown>> = {
  'one record written (a DR list read online)': (app) => writeRecord(app.replica, 'cyberLists', 'CUSTOMER-1', []),
  'one kind of records replaced (the details a sync reads)': (app) => writeKind(app.replica, 'cyberViews', {}),
  'the linked accounts written': (app) => writeKind(app.replica, 'accounts', []),
};

it.each(Object.keys(recordWrites))('%s: the copy’s version moves, the list’s does not, and the answer kept before is given again', async (kind) => {
  const app = await setUp();
  const made = await app.worklist.prepareOpening();
  const before = (await copyState(app.replica))!;
  const fileBefore = await app.replica.reading((open) => open.version());
  await recordWrites[kind]!(app);
  // The file's commits moved (what is derived from the whole copy is made again), the list's did not.
  expect(await app.replica.reading((open) => open.version())).not.toBe(fileBefore);
  expect((await copyState(app.replica))!.version).toBe(before.version);
  expect(await app.worklist.query(first)).toBe(made);
  expect(made).toEqual(await app.fresh().query(first));
});

it('a refresh from pages compared as they came that moves a listed policy’s end out of the window: the worklist no longer lists it (review12)', async () => {
  const app = await setUp();
  const made = await app.worklist.prepareOpening();
  const moved = ids(made)[0]!;
  const later = NOW + 400 * DAY_MS;
  const writes = await refreshComparedAsPagesCame(app, app.policies.map((policy) => (policy.cidrId === moved ? { ...endingAt(policy, later), policyStatus: policy.policyStatus } : policy)));
  // The refresh took the path under test (rows that differ written), not a whole rewrite.
  expect(writes).toMatchObject({ written: 1, deleted: 0, rewrote: false });
  // Read from a fresh worklist too: nothing the worklist keeps itself may stand in for the copy's rows.
  expect(ids(await app.fresh().query(first))).not.toContain(moved);
  expect(ids(await app.worklist.query(first))).not.toContain(moved);
});

/** A refresh as replica-sync.ts runs one over a copy that holds a list: the pages (oldest first) compared with the stored hashes as they come. */
async function refreshComparedAsPagesCame(app: Setup, policies: readonly CapacityPolicy[]) {
  const listed = new ListedAgainstStored((await storedHashes(app.replica))!);
  listed.add(policies);
  return writeCapacityChanges(app.replica, listed, new Date(NOW + 60_000), [], new Map());
}

function endingAt(policy: CapacityPolicy, endMs: number): CapacityPolicy {
  return {
    ...policy,
    policyStatus: 'ACTIVE',
    capacityConfiguration: { ...policy.capacityConfiguration!, launchDateTime: new Date(NOW - 10 * DAY_MS).toISOString(), endDateTime: new Date(endMs).toISOString() },
  };
}

