/**
 * The person's requests before the host's own background work (issue 28,
 * requests-first.ts): the check of every page of the copy and the slim rows'
 * load give way, slice by slice, to a request being answered; a read that
 * arrives while that work runs is answered before it ends; and the check,
 * held back or not, still reads every page and still finds a damaged one
 * (the guarantee of offline-cache-unreadable.test.ts, kept). Every wait here
 * is a latch or a condition, never a time.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { readDatabaseKey } from '../../electron/services/secrets/database-key.js';
import { Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import { RequestsFirst } from '../../electron/services/replica/requests-first.js';
import { capacityOverview } from '../../electron/services/replica/replica-reads.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import { RenewalWorklist } from '../../electron/services/worklist/renewal-worklist.js';
import { BENCH_OWNER, benchCurrentReplica } from '../../bench/support/bench-current-replica.js';
import { WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { flipByte } from '../support/flip-byte.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const ROWS = 3_000;
/** Inside the synthetic policies' dates: the 90-day horizon holds some of them. */
const NOW = new Date(Date.UTC(2026, 9, 1));

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function latch(): { readonly opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A copy of ROWS policies on disk, closed (as after a sync and a quit). */
async function copyOnDisk(secrets: FixedSecretStore): Promise<{ dataDir: string; file: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-requests-first-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const writer = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
  await writeKind(writer, 'capacities', syntheticPolicies(ROWS));
  await writer.close();
  return { dataDir, file: join(writer.dir, 'replica.db') };
}

/** Flips one byte in the middle of a leaf page of the whole records (which the overview's counts never read). */
async function damageARecordPage(file: string, secrets: FixedSecretStore): Promise<void> {
  const key = await readDatabaseKey(secrets, replicaKeyService(BENCH_OWNER.profileId), BENCH_OWNER.username);
  if (!(key instanceof Buffer)) throw new Error('the copy has no key');
  const db = openKeyed(file, key, 1024);
  let at: number;
  try {
    const pages = db.prepare(`SELECT pageno FROM dbstat WHERE name = 'capacity_bodies' AND pagetype = 'leaf' ORDER BY pageno`).pluck().all() as number[];
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    at = ((pages[Math.floor(pages.length / 2)] as number) - 1) * pageSize + pageSize / 2;
  } finally {
    db.close();
  }
  expect(at).toBeLessThan((await stat(file)).size);
  expect(at).toBeGreaterThanOrEqual(1);
  await flipByte(file, at);
}

/** The slices the work has been let to take (counted after its turn came); `asked` opens when it first asks for one. */
function countedTurns(gate: RequestsFirst) {
  const counted = { slices: 0 };
  const asked = latch();
  const turn = async () => {
    asked.open();
    await gate.turn();
    counted.slices += 1;
  };
  return { counted, turn, asked: asked.opened };
}

/** Lets the event loop go round `times` times: background work not held back takes a slice at each. */
async function eventLoopTurns(times = 50): Promise<void> {
  for (let i = 0; i < times; i += 1) await nextTurn();
}

describe('the requests before the background work', () => {
  it('the check of every page waits while a request is answered, a read meanwhile is answered before the check ends, and the check then still finds the damaged page', async () => {
    const secrets = new FixedSecretStore();
    const { dataDir, file } = await copyOnDisk(secrets);
    await damageARecordPage(file, secrets);
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    const { counted, turn, asked } = countedTurns(gate);
    const request = latch();
    const firstScreen = latch();
    // A request of the window under way (its answer held by a latch) when the check would begin.
    const held = gate.during(() => request.opened);
    const replica = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER, verifyDelayMs: 0, afterFirstScreen: () => firstScreen.opened, sliceTurn: turn });
    cleanup.push(() => replica.close());
    let checked = false;
    void replica.verified().then(() => (checked = true));
    firstScreen.open();
    // The check has begun and asks for its first slice.
    await asked;
    await eventLoopTurns();
    // Held back: not one slice of the check while the request is being answered.
    expect(counted.slices).toBe(0);
    expect(checked).toBe(false);

    // A read arriving now (the overview's counts, which do not read the damaged page) is answered, the check still held.
    const overview = await gate.during(() => capacityOverview(replica, NOW));
    expect(overview?.totalPolicies).toBe(ROWS);
    expect(checked).toBe(false);
    expect(counted.slices).toBe(0);

    request.open();
    await held;
    await replica.verified();
    expect(counted.slices).toBeGreaterThan(0);
    // The check ran to the damaged page: the copy is declared unreadable and nothing more is served.
    expect(replica.unreadable).toMatchObject({ state: 'unreadable', reason: 'damaged', recordsLost: ROWS });
    expect(await capacityOverview(replica, NOW)).toBeNull();
  });

  it('the slim rows’ load after a sync gives way to a request, and the Renewals’ first rows are answered while it is held', async () => {
    const secrets = new FixedSecretStore();
    const { dataDir } = await copyOnDisk(secrets);
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    const { counted, turn, asked } = countedTurns(gate);
    const offline = benchCurrentReplica(dataDir, secrets, { sliceTurn: turn });
    cleanup.push(() => offline.close());
    const worklist = new RenewalWorklist({ replica: offline, states: { all: async () => new Map(), update: () => Promise.reject(new Error('not here')) }, now: () => NOW });
    const replica = await offline.replica();
    const open = await replica?.opened();
    if (!replica || !open) throw new Error('the copy did not open');

    const request = latch();
    const held = gate.during(() => request.opened);
    let loaded = false;
    void replica.warm().then(() => (loaded = true));
    await asked;
    await eventLoopTurns();
    expect(counted.slices).toBe(0);
    expect(open.loaded).toBe(false);

    // The worklist read meanwhile is answered in full from SQL, the load still held back.
    const first = WorklistWindow.parse(await gate.during(() => worklist.query({ horizonDays: 90, limit: 50 })));
    expect(first.rows).toHaveLength(50);
    expect(first.total).toBeGreaterThan(50);
    expect(loaded).toBe(false);

    request.open();
    await held;
    await replica.warm();
    expect(open.loaded).toBe(true);
    expect(counted.slices).toBeGreaterThan(0);
    expect(open.count).toBe(ROWS);
  });
  it('a purchase written through while the slim rows’ load is held is seen by the next read at once, and kept by the load', async () => {
    const secrets = new FixedSecretStore();
    const { dataDir } = await copyOnDisk(secrets);
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    const { turn, asked } = countedTurns(gate);
    const offline = benchCurrentReplica(dataDir, secrets, { sliceTurn: turn });
    cleanup.push(() => offline.close());
    const replica = await offline.replica();
    const open = await replica?.opened();
    if (!replica || !open) throw new Error('the copy did not open');
    const [policy] = syntheticPolicies(1);
    if (!policy) throw new Error('no policy');

    const request = latch();
    const held = gate.during(() => request.opened);
    void replica.warm();
    await asked;
    await eventLoopTurns();
    expect(open.loaded).toBe(false);
    // The purchase's write-through, then the view reads again (from SQL: the rows are not in memory yet). A load
    // holding a read transaction on the reading connection kept the copy as it was for every read until it ended.
    open.upsert({ ...policy, policyName: 'bought just now' });
    const read = { text: 'bought just now', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 20 } as const;
    expect(open.query(read).total).toBe(1);

    request.open();
    await held;
    await replica.warm();
    expect(open.loaded).toBe(true);
    expect(open.query(read).total).toBe(1);
    expect(open.count).toBe(ROWS);
  });
});

describe('RequestsFirst', () => {
  it('gives the turn at once when nothing is being answered, and once every request held is answered', async () => {
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    await gate.turn();
    const first = latch();
    const second = latch();
    const answers = [gate.during(() => first.opened), gate.during(() => second.opened)];
    let turned = false;
    void gate.turn().then(() => (turned = true));
    first.open();
    await answers[0];
    await eventLoopTurns(5);
    expect(turned).toBe(false);
    second.open();
    await answers[1];
    await eventLoopTurns(1);
    expect(turned).toBe(true);
  });

  it('after the last answer the work waits the quiet period (the page paints that answer first), and nothing once stopped', async () => {
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 60_000 });
    await gate.during(() => Promise.resolve('answered'));
    let turned = false;
    void gate.turn().then(() => (turned = true));
    await eventLoopTurns(5);
    expect(turned).toBe(false);
    // Stopped (the app closing): nothing is held any more.
    gate.stop();
    await eventLoopTurns(1);
    expect(turned).toBe(true);
  });

  it('a change of the copy holds the work for the calls it brings (expectCalls): until they come and are answered, or the time given has passed', async () => {
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    gate.expectCalls(10 * 60_000);
    let turned = false;
    void gate.turn().then(() => (turned = true));
    await eventLoopTurns(5);
    // Held before any request has arrived (renew16: the sync's end met the page's calls with slices under way).
    expect(turned).toBe(false);
    const answer = latch();
    const answered = gate.during(() => answer.opened);
    await eventLoopTurns(5);
    expect(turned).toBe(false);
    answer.open();
    await answered;
    await eventLoopTurns(1);
    // The call came and was answered: its own quiet (none here) follows it, not the rest of the time given.
    expect(turned).toBe(true);

    // No call comes: the work goes on once the time given has passed (resolves: a test that hangs here is the failure).
    gate.expectCalls(1);
    await gate.turn();
    // While a request holds the work, the expectation adds nothing: the request's answer lets it go.
    const held = latch();
    const holding = gate.during(() => held.opened);
    gate.expectCalls(10 * 60_000);
    let after = false;
    void gate.turn().then(() => (after = true));
    held.open();
    await holding;
    await eventLoopTurns(1);
    expect(after).toBe(true);
  });

  it('requests that keep coming still let a slice through once it has waited the longest wait (the work is never starved)', async () => {
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 1, quietMs: 0 });
    const never = latch();
    void gate.during(() => never.opened);
    // Resolves while the request still holds: a test that hangs here is the failure.
    await gate.turn();
    expect(gate.busy).toBe(true);
    never.open();
  });

  it('a failed answer releases the work too', async () => {
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    await expect(gate.during(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(gate.busy).toBe(false);
    await gate.turn();
  });

  it('a request that outlasts the hold (it waits for the service, or for this very work) no longer holds the work back', async () => {
    const gate = new RequestsFirst({ holdMs: 1, quietMs: 0 });
    const never = latch();
    void gate.during(() => never.opened);
    // Resolves once the hold has run out: a test that hangs here is the failure.
    await gate.turn();
    expect(gate.busy).toBe(false);
    never.open();
  });

  it('the channels that wait for the background work are not held, and after stop nothing is', async () => {
    const gate = new RequestsFirst({ holdMs: 10 * 60_000, longestWaitMs: 10 * 60_000, quietMs: 0 });
    const waits = latch();
    const handlers = gate.watch({ 'customers.overview': () => waits.opened.then(() => 'totals'), 'worklist.query': () => waits.opened.then(() => 'rows') }, ['customers.overview']);
    const totals = handlers['customers.overview']();
    expect(gate.busy).toBe(false);
    const rows = handlers['worklist.query']();
    expect(gate.busy).toBe(true);
    let turned = false;
    void gate.turn().then(() => (turned = true));
    gate.stop();
    await eventLoopTurns(1);
    expect(turned).toBe(true);
    waits.open();
    expect(await Promise.all([totals, rows])).toEqual(['totals', 'rows']);
  });
});
