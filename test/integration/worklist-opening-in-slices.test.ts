/**
 * The Renewals' opening made ahead reads the copy a step at a time (issue 28): made in one piece after a first
 * sync of 100,000 it held the main process for 1.6 s at load 27, and a click arriving during it waited for the
 * whole. Here the steps wait their turn (as RequestsFirst makes them wait while a request is answered) and a
 * person's query is answered while the opening is still being made; what is made is what one read gives.
 */
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { WORKLIST_OPENING, type WorklistEntry } from '../../shared/ipc/worklist.js';
import { upsertCapacity } from '../../electron/services/replica/replica-writes.js';
import { keepUpcomingInSlices } from '../../electron/services/replica/replica-reads.js';
import type { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import { upcomingOf } from '../../electron/services/worklist/replica-upcoming.js';
import { RenewalWorklist, type RenewalWorklistDeps } from '../../electron/services/worklist/renewal-worklist.js';
import type { WorklistStates } from '../../electron/services/worklist/worklist-states.js';
import { checkedOutput } from '../../electron/services/ipc/kept-answers.js';
import { checkKeptAhead } from '../../electron/services/ipc/warm-checks.js';
import { CONTRACT } from '../../shared/ipc/contract.js';
import { BENCH_OWNER, benchCurrentReplica } from '../../bench/support/bench-current-replica.js';
import { seededCopies } from '../support/seeded-copy.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const DAY_MS = 86_400_000;
/** Inside the synthetic policies' dates: each horizon holds some of them. */
const NOW = Date.UTC(2026, 9, 1);
/** Enough policies for several steps of the read in slices (500 rows each). */
const POLICIES = 16_000;

/** The SQLite driver the copy is read with: its statements are counted to see which reads a query made. */
const sqlite = createRequire(import.meta.url)('better-sqlite3-multiple-ciphers') as typeof Database;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The same map each time, as the own data answers while no entry changes (a kept answer is checked against it). */
const NO_ENTRIES = new Map<string, WorklistEntry>();
const noEntries: WorklistStates = {
  all: () => Promise.resolve(NO_ENTRIES),
  update: () => Promise.reject(new Error('no entry is changed here')),
};

/** The copy every test starts from: written once, copied for each. */
const seeded = seededCopies(BENCH_OWNER, () => syntheticPolicies(POLICIES));
afterAll(() => seeded.remove());

/** A copy of POLICIES policies on disk, opened by two readers of its own (each its own reading connection). */
async function copyOnDisk(): Promise<{ opened(): Promise<CurrentReplica> }> {
  const { dataDir, secrets } = await seeded.copy();
  const readers: CurrentReplica[] = [];
  cleanup.push(async () => {
    for (const reader of readers) await (await reader.replica())?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    async opened() {
      const reader = benchCurrentReplica(dataDir, secrets);
      readers.push(reader);
      await reader.replica();
      return reader;
    },
  };
}

/** No customer for any policy, the same namer each time (as the book answers while it does not change). */
const NO_CUSTOMER = () => null;

/** One step of the read a slice, so each step waits a turn whatever the machine's pace. */
const ONE_STEP_A_SLICE = 0;
/** Rows per step where a test needs the window's read in several steps (the 30-day opening here holds about 600 rows). */
const STEP_ROWS_HERE = 100;

function worklistOver(replica: CurrentReplica, more: Partial<RenewalWorklistDeps> = {}): RenewalWorklist {
  return new RenewalWorklist({ replica, states: noEntries, customerOf: () => Promise.resolve(NO_CUSTOMER), now: () => new Date(NOW), sliceMs: ONE_STEP_A_SLICE, ...more });
}

/** A turn that holds its first call until letGo() (the opening's second step waits, as while a request is answered), counting the calls. */
function firstTurnHeld(): { readonly turn: () => Promise<void>; readonly letGo: () => void; readonly turns: () => number } {
  let turns = 0;
  let letGo = () => {};
  const held = new Promise<void>((resolve) => (letGo = resolve));
  return { turn: () => (++turns === 1 ? held : Promise.resolve()), letGo: () => letGo(), turns: () => turns };
}

/** One execution of a statement of the copy: its SQL and the row ids (first column) of the rows it gave. */
interface StatementRun {
  readonly sql: string;
  readonly rids: readonly number[];
}

/**
 * Records every `all()` of the SQLite driver's statements from now until stop(): `take()` answers those since the
 * last take. A spy on `prepare` sees a statement prepared, not each time it is run, nor what it read.
 */
function statementsRun(): { take(): StatementRun[]; stop(): void } {
  const probe = new sqlite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { all(...params: unknown[]): unknown[] };
  probe.close();
  const original = statement.all;
  const runs: StatementRun[] = [];
  const spy = vi.spyOn(statement, 'all').mockImplementation(function (this: { source: string }, ...params: unknown[]) {
    const rows = original.apply(this, params);
    const rids = rows.map((row) => (Array.isArray(row) ? row[0] : Object.values(row as object)[0]));
    runs.push({ sql: this.source, rids: rids.filter((rid): rid is number => typeof rid === 'number') });
    return rows;
  });
  return {
    take: () => runs.splice(0),
    stop: () => spy.mockRestore(),
  };
}

describe('the Renewals\u2019 opening made ahead', () => {
  it('reads the copy in steps that wait their turn, and keeps what one read of it gives, in its order', async () => {
    const copy = await copyOnDisk();
    const [sliced, whole] = [await copy.opened(), await copy.opened()];
    const fromMs = NOW;
    const toMs = NOW + 90 * DAY_MS;
    let turns = 0;
    const replica = (await sliced.replica())!;
    await keepUpcomingInSlices(
      replica,
      fromMs,
      toMs,
      () => {
        turns += 1;
        return Promise.resolve();
      },
      ONE_STEP_A_SLICE,
    );
    const kept = await replica.reading((open) => open.db.readWith((connection) => upcomingOf(connection, fromMs, toMs)));
    const read = await (await whole.replica())!.reading((open) => open.db.readWith((connection) => upcomingOf(connection, fromMs, toMs)));
    expect(read!.length, 'rows in the window').toBeGreaterThan(1_000);
    // Rows there for their launch only (the launch range's, merged into the ends' order) and rows there for their end.
    const endsInside = (row: { endMs: number | null }) => row.endMs !== null && row.endMs > fromMs && row.endMs <= toMs + DAY_MS;
    expect(read!.some((row) => !endsInside(row))).toBe(true);
    expect(read!.some(endsInside)).toBe(true);
    expect(kept).toEqual(read);
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('answers a person\u2019s query while the opening is being made, then makes the opening a query would', async () => {
    const copy = await copyOnDisk();
    const replica = await copy.opened();
    const step = firstTurnHeld();
    // The second step waits, as it would while a request is being answered.
    const worklist = worklistOver(replica, { turn: step.turn });
    let made = false;
    const making = worklist.prepareOpening().then((window) => {
      made = true;
      return window;
    });
    await vi.waitFor(() => expect(step.turns() > 0 || made).toBe(true));

    const clicked = await worklist.query({ ...WORKLIST_OPENING, horizonDays: 30 });
    expect(made).toBe(false);
    expect(clicked.total).toBe((await worklistOver(await copy.opened()).query({ ...WORKLIST_OPENING, horizonDays: 30 })).total);

    step.letGo();
    const opening = await making;
    expect(opening).toEqual(await worklistOver(await copy.opened()).query(WORKLIST_OPENING));
    // Kept: the view's first query is given the very answer made ahead.
    expect(await worklist.query(WORKLIST_OPENING)).toBe(opening);
  });

  it('is joined by a person\u2019s query during its steps: the rest is read once, by the query, and the steps read nothing more', async () => {
    const copy = await copyOnDisk();
    const replica = await copy.opened();
    // The clock moves between the opening's start and the click, as it does (the click's window begins later).
    let now = NOW;
    const step = firstTurnHeld();
    // Steps of STEP_ROWS_HERE rows: the window (about 400 launches and 200 ends of these policies) then takes several
    // walks of each range, so the click joins the steps part-way through the launches.
    const worklist = worklistOver(replica, { now: () => new Date(now), turn: step.turn, stepRows: STEP_ROWS_HERE });
    // Every execution of a statement, with the rows it gave. What proves the rest "read once" is which rows each walk
    // read: with the steps' own 500 rows the window took two walks in all, one a range, so "at most two walks of a
    // range" (this test's spy on `prepare` before renew16) held as well for a click that read the window again.
    const walks = statementsRun();
    cleanup.push(async () => walks.stop());
    const making = worklist.prepareOpening();
    await vi.waitFor(() => expect(step.turns()).toBe(1));
    const byOpening = walks.take();

    now += 60_000;
    const clicked = await worklist.query(WORKLIST_OPENING);
    const byClick = walks.take();
    step.letGo();
    const opening = await making;
    const afterwards = walks.take();
    walks.stop();

    // The window's walks by range; not the opening's first rows (renew18: up to a page's worth along the ends, read once
    // before its steps, `INDEXED BY capacities_end`), which are not the window's read.
    const rangeWalks = (run: readonly StatementRun[], column: 'launch_ms' | 'end_ms') =>
      run.filter((r) => /LIMIT @limit/.test(r.sql) && r.sql.includes(`WHERE c.${column} >`) && !r.sql.includes('INDEXED BY capacities_end'));
    // The whole window's read (both ranges at once) was not made beside the steps.
    expect([...byOpening, ...byClick, ...afterwards].filter((r) => /\bOR \(c\.end_ms/.test(r.sql)), 'reads of the whole window').toEqual([]);
    expect(rangeWalks(byOpening, 'launch_ms').map((r) => r.rids.length), 'the opening\u2019s first step, before the click').toEqual([STEP_ROWS_HERE]);
    expect(rangeWalks(byClick, 'launch_ms').length, 'the rest of the launches, read by the click').toBeGreaterThanOrEqual(2);
    expect(rangeWalks(byClick, 'end_ms').length, 'the ends, read by the click').toBeGreaterThanOrEqual(2);
    expect(rangeWalks(afterwards, 'launch_ms').length + rangeWalks(afterwards, 'end_ms').length, 'walks after the click').toBe(0);
    // Each range's rows read once across the opening's step and the click's walks: none read again from its start.
    for (const column of ['launch_ms', 'end_ms'] as const) {
      const rids = [...rangeWalks(byOpening, column), ...rangeWalks(byClick, column)].flatMap((r) => r.rids);
      expect(rids.length, `rows of the ${column} range read`).toBeGreaterThan(0);
      expect(new Set(rids).size, `rows of the ${column} range read twice`).toBe(rids.length);
    }

    expect(clicked).toEqual(await worklistOver(await copy.opened(), { now: () => new Date(now) }).query(WORKLIST_OPENING));
    // The opening is the click's answer, kept.
    expect(opening).toBe(clicked);
  });

  it('reads nothing in steps when a person\u2019s query has just read the window it needs', async () => {
    const copy = await copyOnDisk();
    const replica = await copy.opened();
    let now = NOW;
    const worklist = worklistOver(replica, { now: () => new Date(now) });
    // Clicked before the opening was made ahead (a launch's opening waits for the first screen and after it).
    await worklist.query(WORKLIST_OPENING);
    now += 60_000;
    const prepared = vi.spyOn(sqlite.prototype, 'prepare');
    cleanup.push(async () => prepared.mockRestore());
    const opening = await worklist.prepareOpening();
    const statements = prepared.mock.calls.map(([sql]) => sql);
    prepared.mockRestore();
    expect(statements.filter((sql) => /LIMIT @limit|\bOR \(c\.end_ms/.test(sql)), 'reads of the window').toEqual([]);
    expect(opening).toEqual(await worklistOver(await copy.opened(), { now: () => new Date(now) }).query(WORKLIST_OPENING));
  });

  it('takes as many steps between two turns as a slice holds', async () => {
    const copy = await copyOnDisk();
    const replica = (await (await copy.opened()).replica())!;
    let turns = 0;
    const turn = () => {
      turns += 1;
      return Promise.resolve();
    };
    // A slice with no end: every step of the read in it (one step a turn took a turn for each of them).
    await keepUpcomingInSlices(replica, NOW, NOW + 90 * DAY_MS, turn, Number.POSITIVE_INFINITY);
    expect(turns).toBe(0);
    const prepared = vi.spyOn(sqlite.prototype, 'prepare');
    cleanup.push(async () => prepared.mockRestore());
    // Kept: the read it made answers the window from memory.
    expect((await replica.reading((open) => open.db.readWith((connection) => upcomingOf(connection, NOW, NOW + 90 * DAY_MS))))!.length).toBeGreaterThan(1_000);
    expect(prepared.mock.calls.filter(([sql]) => /\bOR \(c\.end_ms|LIMIT @limit/.test(sql))).toEqual([]);
  });

  it('is not joined after a write between its steps: the click answers the copy as written', async () => {
    const copy = await copyOnDisk();
    const reader = await copy.opened();
    const step = firstTurnHeld();
    const worklist = worklistOver(reader, { turn: step.turn });
    const soonest = (await worklistOver(await copy.opened()).query(WORKLIST_OPENING)).rows[0]!.policy;
    const making = worklist.prepareOpening();
    await vi.waitFor(() => expect(step.turns()).toBe(1));

    // Cancelled meanwhile (a cancel's answer written through): it leaves the window.
    const policy = syntheticPolicies(POLICIES).find((candidate) => candidate.cidrId === soonest.cidrId)!;
    expect(await upsertCapacity((await reader.replica())!, { ...policy, policyStatus: 'CANCELED' })).toBe(true);
    const clicked = await worklist.query(WORKLIST_OPENING);
    expect(clicked.rows.map((row) => row.policy.cidrId)).not.toContain(soonest.cidrId);
    expect(clicked).toEqual(await worklistOver(await copy.opened()).query(WORKLIST_OPENING));
    step.letGo();
    expect(await making).toEqual(clicked);
  });

  it('answers one version of the copy when another connection commits inside the walk a click joins', async () => {
    const copy = await copyOnDisk();
    const reader = await copy.opened();
    const before = await worklistOver(await copy.opened()).query(WORKLIST_OPENING);
    // One policy read by the launch walk only (launches in the window, ends after it) and one by the end walk only.
    const policies = syntheticPolicies(POLICIES);
    const to = NOW + WORKLIST_OPENING.horizonDays * DAY_MS;
    const ms = (text: string | null | undefined) => (text ? Date.parse(text) : Number.NaN);
    const launching = policies.find(
      (policy) =>
        ['ACTIVE', 'READY_FOR_PURCHASE'].includes(policy.policyStatus ?? '') &&
        ms(policy.capacityConfiguration?.launchDateTime) > NOW &&
        ms(policy.capacityConfiguration?.launchDateTime) <= to &&
        ms(policy.capacityConfiguration?.endDateTime) > to + 3 * DAY_MS,
    )!;
    const ending = policies.find(
      (policy) =>
        policy.policyStatus === 'ACTIVE' &&
        ms(policy.capacityConfiguration?.launchDateTime) <= NOW &&
        ms(policy.capacityConfiguration?.endDateTime) > NOW &&
        ms(policy.capacityConfiguration?.endDateTime) <= to,
    )!;
    expect(launching && ending).toBeTruthy();

    const step = firstTurnHeld();
    const worklist = worklistOver(reader, { turn: step.turn });
    const making = worklist.prepareOpening();
    await vi.waitFor(() => expect(step.turns()).toBe(1));

    // The commit lands between the end walk's version read and its statement, as the rewrite thread's can on its own
    // connection at any moment: here from the copy's writer, when the walk's statement is prepared.
    const open = (await (await reader.replica())!.reading((opened) => opened))!;
    let armed = true;
    const realPrepare = sqlite.prototype.prepare;
    const prepared = vi.spyOn(sqlite.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
      if (armed && /c\.end_ms > @from AND c\.end_ms <= @to/.test(sql) && /LIMIT @limit/.test(sql)) {
        armed = false;
        open.db.upsert({ ...launching, policyStatus: 'CANCELED' });
        open.db.upsert({ ...ending, policyStatus: 'CANCELED' });
      }
      return realPrepare.call(this, sql);
    } as typeof realPrepare);
    cleanup.push(async () => prepared.mockRestore());
    const clicked = await worklist.query(WORKLIST_OPENING);
    prepared.mockRestore();
    step.letGo();
    await making;
    expect(armed, 'the click joined the steps and walked the end range').toBe(false);

    const after = await worklistOver(await copy.opened()).query(WORKLIST_OPENING);
    const facts = (window: typeof clicked) => ({ total: window.total, stateCounts: window.stateCounts, ids: window.rows.map((row) => row.policy.cidrId) });
    expect(facts(after).total).toBe(facts(before).total - 2);
    // Before or after, never a part.
    expect([facts(before), facts(after)]).toContainEqual(facts(clicked));
  });
});

describe('the Renewals\u2019 whole answer in steps (renew14)', () => {
  it('reads its window and picks over it in slices that yield to the event loop, and answers as a query made in one piece', async () => {
    const copy = await copyOnDisk();
    const worklist = worklistOver(await copy.opened());
    // The event loop's turns, counted while the query runs; each read of the window or of records notes the turn it ran in.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const at: Array<{ turn: number; sql: string }> = [];
    const realPrepare = sqlite.prototype.prepare;
    const prepared = vi.spyOn(sqlite.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
      if (/FROM capacities AS c|capacity_bodies/.test(sql)) at.push({ turn: turns, sql });
      return realPrepare.call(this, sql);
    } as typeof realPrepare);
    cleanup.push(async () => prepared.mockRestore());
    const answer = await worklist.query(WORKLIST_OPENING);
    counting = false;
    prepared.mockRestore();
    const walks = at.filter(({ sql }) => /LIMIT @limit/.test(sql));
    // One 500-row step a slice (the tests' sliceMs 0): the window's rows over several turns, its records after them.
    expect(walks.length).toBeGreaterThanOrEqual(Math.ceil(answer.total / 500));
    expect(new Set(at.map(({ turn }) => turn)).size, 'turns the reads ran in').toBeGreaterThan(walks.length / 2);
    expect(at.at(-1)!.sql).toMatch(/capacity_bodies/);
    expect(at.at(-1)!.turn).toBeGreaterThan(at[0]!.turn);
    // The same answer as the window read, picked and joined in one statement's read (a slice with no end reads it all at once).
    const inOnePiece = await worklistOver(await copy.opened(), { sliceMs: Number.POSITIVE_INFINITY }).query(WORKLIST_OPENING);
    expect(answer.total).toBeGreaterThan(WORKLIST_OPENING.limit);
    expect(answer).toEqual(inOnePiece);
  });
});

describe('the Renewals\u2019 first rows before the whole window is read (renew13)', () => {
  it('are the whole answer\u2019s first rows, a launch in the window whose policy ends before it launches first, its count still counting', async () => {
    const copy = await copyOnDisk();
    const reader = await copy.opened();
    const to = NOW + WORKLIST_OPENING.horizonDays * DAY_MS;
    const ms = (text: string | null | undefined) => (text ? Date.parse(text) : Number.NaN);
    // The list's order is end then id: a policy launching in the window with an end before the window comes first,
    // though no walk along the ends from the window's start meets it.
    const launching = syntheticPolicies(POLICIES).find(
      (policy) =>
        ['ACTIVE', 'READY_FOR_PURCHASE'].includes(policy.policyStatus ?? '') &&
        ms(policy.capacityConfiguration?.launchDateTime) > NOW + 10 * DAY_MS &&
        ms(policy.capacityConfiguration?.launchDateTime) <= to,
    )!;
    const odd = { ...launching, capacityConfiguration: { ...launching.capacityConfiguration, endDateTime: new Date(NOW - DAY_MS).toISOString() } };
    expect(await upsertCapacity((await reader.replica())!, odd)).toBe(true);

    const first = await worklistOver(reader).query({ ...WORKLIST_OPENING, mayStillCount: true });
    const whole = await worklistOver(await copy.opened()).query(WORKLIST_OPENING);
    expect(first.stillCounting).toBe(true);
    expect(whole.stillCounting).toBeUndefined();
    expect(first.rows[0]?.policy.cidrId).toBe(launching.cidrId);
    expect(first.rows).toEqual(whole.rows);
    expect(first.total).toBeLessThan(whole.total);
  });
});

describe('the Renewals\u2019 opening\u2019s first rows made ahead (renew18)', () => {
  it('are kept and checked: a click while the opening\u2019s steps wait is given them with nothing read or checked', async () => {
    const copy = await copyOnDisk();
    const replica = await copy.opened();
    let now = NOW;
    const output = CONTRACT['worklist.query'].output;
    // The turn before the check goes at once; the steps' first turn is held, as while the page's calls are answered
    // at a sync's end (the first click after a sync meets the steps there).
    let turns = 0;
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const turn = () => (++turns === 2 ? held : Promise.resolve());
    const worklist = worklistOver(replica, { now: () => new Date(now), turn, checkAhead: (answer) => checkKeptAhead('worklist.query', answer) });
    const making = worklist.prepareOpening();
    await vi.waitFor(() => expect(turns).toBe(2));

    now += 60_000;
    const walks = statementsRun();
    cleanup.push(async () => walks.stop());
    const parsed = vi.spyOn(output, 'safeParse');
    cleanup.push(async () => parsed.mockRestore());
    const clicked = await worklist.query({ ...WORKLIST_OPENING, mayStillCount: true });
    // The dispatch's output check, as the click's answer is sent.
    const checked = checkedOutput(output, clicked);
    const read = walks.take().filter((run) => /FROM capacit/.test(run.sql));
    walks.stop();
    const parses = parsed.mock.calls.length;
    parsed.mockRestore();

    expect(clicked.stillCounting).toBe(true);
    expect(read.map((run) => run.sql), 'reads of the copy at the click').toEqual([]);
    expect(parses, 'output checks at the click').toBe(0);
    expect(checked.success).toBe(true);
    // The rows a click would have read itself then.
    const fresh = await worklistOver(await copy.opened(), { now: () => new Date(now) }).query({ ...WORKLIST_OPENING, mayStillCount: true });
    expect(clicked.rows).toEqual(fresh.rows);

    letGo();
    const opening = await making;
    expect(opening.stillCounting).toBeUndefined();
    // Once the whole answer is made, it is what either ask is given.
    expect(await worklist.query({ ...WORKLIST_OPENING, mayStillCount: true })).toBe(opening);
  });

  it('are given no more once a policy comes into the window at their top (launching just past it, its end before it)', async () => {
    const copy = await copyOnDisk();
    const reader = await copy.opened();
    const to = NOW + WORKLIST_OPENING.horizonDays * DAY_MS;
    const launching = syntheticPolicies(POLICIES).find((policy) => ['ACTIVE', 'READY_FOR_PURCHASE'].includes(policy.policyStatus ?? ''))!;
    // The list's order is end then id: once in the window it is the first row, though the first rows made ahead (a
    // second before) did not hold it.
    const coming = {
      ...launching,
      capacityConfiguration: { ...launching.capacityConfiguration, launchDateTime: new Date(to + 1_000).toISOString(), endDateTime: new Date(NOW - DAY_MS).toISOString() },
    };
    expect(await upsertCapacity((await reader.replica())!, coming)).toBe(true);
    let now = NOW;
    const step = firstTurnHeld();
    const worklist = worklistOver(reader, { now: () => new Date(now), turn: step.turn });
    const making = worklist.prepareOpening();
    await vi.waitFor(() => expect(step.turns()).toBe(1));

    now += 2_000;
    const clicked = await worklist.query({ ...WORKLIST_OPENING, mayStillCount: true });
    expect(clicked.rows[0]?.policy.cidrId).toBe(launching.cidrId);
    expect(clicked.rows).toEqual((await worklistOver(await copy.opened(), { now: () => new Date(now) }).query({ ...WORKLIST_OPENING, mayStillCount: true })).rows);
    step.letGo();
    await making;
  });
});
