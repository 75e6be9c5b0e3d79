import { WORKLIST_OPENING, WORKLIST_PAGE, WORKLIST_STATES, WorklistEntryInput, localDay, snoozedOut, stateOutside, WorklistQuery, type ParsedWorklistQuery, type WorklistEntry, type WorklistRow, type WorklistState, type WorklistWindow } from '../../../shared/ipc/worklist.js';
import { dictionary } from '../../../shared/records.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { copyState, firstUpcomingCapacities, keepUpcomingInSlices, pickedUpcomingCapacities, upcomingCapacities, upcomingKept, upcomingWindowKept } from '../replica/replica-reads.js';
import type { Replica } from '../replica/replica.js';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { SLICE_MS, slice } from '../replica/time-slices.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { SliceTurn } from '../replica/requests-first.js';
import { inWindow, type UpcomingCapacity } from './replica-upcoming.js';
import { KeptWindows, type WindowSources } from './kept-windows.js';
import { noCustomers, type CustomerNamer, type CustomerOfPolicy } from './customer-of.js';
import type { WorklistStates } from './worklist-states.js';

const DAY_MS = 86_400_000;
/**
 * How far past the horizon an answer reads, to know when the next policy comes into it: an answer is kept
 * at most this long (the copy's kept read looks a day ahead, so this is read from memory too).
 */
const LOOK_AHEAD_MS = 3_600_000;

export interface RenewalWorklistDeps {
  readonly replica: Pick<CurrentReplica, 'readWithHealth'>;
  readonly states: WorklistStates;
  readonly customerOf?: CustomerNamer;
  readonly now?: () => Date;
  /** What the opening made ahead waits for between the slices of its read (the person's requests: RequestsFirst). */
  readonly turn?: SliceTurn;
  /** How long one slice of that read runs (SLICE_MS; tests: 0, one step a slice, so each step waits a turn). */
  readonly sliceMs?: number;
  /** Rows per step of the reads in steps (STEP_ROWS; tests: fewer, so a small copy's window takes several steps). */
  readonly stepRows?: number;
  /**
   * The channel's output check of an answer made ahead, made now (app-services: the contract's, through
   * `checkedOutput`), so that its first send is not checked then: the opening's first rows (renew18).
   */
  readonly checkAhead?: (answer: WorklistWindow) => void;
}

/**
 * The renewal worklist: the local copy's policies launching or ending within
 * the horizon, across every customer, soonest end first, each with the
 * account manager's own entry. It answers from the copy only (online or not):
 * what is coming up is a question about the whole book, which only the copy
 * holds at once. Its last answers are kept (`KeptWindows`) and given again
 * while nothing they were made from has changed.
 */
export class RenewalWorklist {
  readonly #deps: RenewalWorklistDeps;
  readonly #customerOf: CustomerNamer;
  readonly #kept = new KeptWindows();

  constructor(deps: RenewalWorklistDeps) {
    this.#deps = deps;
    this.#customerOf = deps.customerOf ?? noCustomers;
  }

  async query(input: WorklistQuery): Promise<WorklistWindow> {
    const query = WorklistQuery.parse(input);
    const now = this.#now();
    const customerOf = await this.#customerOf();
    const entries = await this.#deps.states.all();
    const today = localDay(now);
    const fromMs = now.getTime();
    const toMs = fromMs + query.horizonDays * DAY_MS;
    const pick = new WindowPick(query, fromMs, toMs, entries, customerOf, today);

    // A whole answer serves a query that would have taken the first rows early as well; first rows are kept apart.
    const key = JSON.stringify({ ...query, mayStillCount: undefined });
    const firstKey = JSON.stringify({ ...query, mayStillCount: true });
    const { answer, unreadable } = await this.#deps.replica.readWithHealth(
      async (replica) => {
        const copy = await copyState(replica);
        if (!copy) return null;
        // Read before the rows: a commit landing in between leaves what is kept under the older version, never found.
        const sources: WindowSources = { ...copy, entries, customerOf, today };
        // First rows kept only while the window is not read: once it is, the whole answer is made from memory.
        const kept =
          this.#kept.find(key, sources, fromMs) ??
          (query.mayStillCount && !(await upcomingWindowKept(replica, fromMs, toMs)) ? this.#kept.find(firstKey, sources, fromMs) : null);
        if (kept) return { kept };
        if (query.mayStillCount) {
          // The window not read yet: its first rows along the ends, the count left to the whole answer asked next.
          pick.reset();
          const first = await firstUpcomingCapacities(replica, fromMs, toMs, (rows) => pick.addUntil(rows, query.offset + query.limit), () => pick.pageRids(), LOOK_AHEAD_MS);
          if (first) return { read: first, sources, stillCounting: true, filled: first.filled };
        }
        const stepped = await this.#wholeInSteps(replica, copy.version, fromMs, toMs + LOOK_AHEAD_MS, pick);
        if (stepped) return { read: stepped, sources, stillCounting: false, filled: true };
        // The list committed during the steps (a refresh, a write-through): the window read, picked and joined at once.
        const read = await upcomingCapacities(replica, fromMs, toMs + LOOK_AHEAD_MS, (upcoming) => {
          // From nothing each time: a read met by a change on disk is made again.
          pick.reset();
          for (const policy of upcoming) pick.add(policy);
          return pick.pageRids();
        });
        return read && { read, sources, stillCounting: false, filled: true };
      },
      { checkFiles: 'while-reading' },
    );
    const base = { offset: query.offset, stateCounts: pick.stateCounts, ...(unreadable ? { unreadable } : {}) };
    if (!answer) return { ...base, rows: [], total: 0, customers: [], origin: null };
    if ('kept' in answer) return answer.kept;
    const { read, sources, stillCounting, filled } = answer;
    const page = pick.page();
    const rows = read.picked.flatMap((policy, index): WorklistRow[] => {
      const meta = page[index];
      if (!meta) return [];
      // The row's own copy of the entry: the map's entries are shared by every answer made while none changed, and
      // a kept answer is frozen whole (keptAnswer).
      const entry = entries.get(policy.cidrId);
      return [{ policy, customer: meta.customer, milestone: meta.milestone, entry: entry ? { ...entry } : null }];
    });
    const window: WorklistWindow = {
      ...base,
      rows,
      total: pick.matching.length,
      customers: [...pick.customers].sort((a, b) => a.localeCompare(b)),
      origin: { source: 'replica', fetchedAt: read.fetchedAt },
      ...(stillCounting ? { stillCounting } : {}),
    };
    // Every row found (none gone between the ids and their records), and a page at most: what the view asks as it
    // opens. An answer still counting is kept apart (`firstKey`), given again only to a query that may still count,
    // and only when its rows filled the page: then every policy that can pass into or out of its page as the clock
    // moves was read (the soonest ends, the head's launches up to LOOK_AHEAD_MS past the window), and its `untilMs`
    // holds. One that ran out of rows may gain a policy whose end comes into the window (renew18).
    const whole = rows.length === page.length && query.limit <= WORKLIST_PAGE;
    if (whole && !stillCounting) this.#kept.keep(key, sources, fromMs, pick.untilMs, window);
    else if (whole && filled) this.#kept.keep(firstKey, sources, fromMs, pick.untilMs, window);
    return window;
  }

  /**
   * Makes the answer the Renewals view opens on (`WORKLIST_OPENING`) and keeps it, as a query would: the first
   * click after a refresh or a launch is then answered from memory instead of reading the upcoming policies,
   * picking and joining them (1.6 s of 2 s at load 27 for the first opening after a sync of 100,000). Kept and
   * dropped as every kept answer is (the copy, its commits, the entries, the customer book, the day). Its read of
   * the copy is made a step at a time first (`keepUpcomingInSlices`), waiting its turn between slices of steps: made in
   * one piece, a click arriving during it waited for the whole.
   */
  async prepareOpening(): Promise<WorklistWindow> {
    // Its first rows first, kept and checked (renew18): a click while the steps below are under way (the first click
    // after a sync, at its end, meets them held for the window's calls) is answered from memory, not read, joined and
    // checked then (at load 41, one turn of 443 ms in the host, half of it the output check).
    const first = await this.query({ ...WORKLIST_OPENING, mayStillCount: true });
    if (first.stillCounting && this.#deps.checkAhead) {
      await this.#deps.turn?.();
      this.#deps.checkAhead(first);
    }
    const fromMs = this.#now().getTime();
    const toMs = fromMs + WORKLIST_OPENING.horizonDays * DAY_MS + LOOK_AHEAD_MS;
    // The files are checked by the query after it, which reads them again if they changed.
    await this.#deps.replica.readWithHealth(
      async (replica) => {
        await keepUpcomingInSlices(replica, fromMs, toMs, this.#deps.turn, this.#deps.sliceMs, this.#deps.stepRows);
        return null;
      },
      { checkFiles: false },
    );
    return this.query(WORKLIST_OPENING);
  }

  /**
   * The whole answer's read, pick and join in steps (issue 28, renew14): the window read along its indexes in slices
   * (going on with the opening's steps when they hold it), then picked in slices, each yielding to the event loop,
   * then the page's records joined, if the list's version is still the one the copy's state was read under (else
   * null, and the caller reads it in one piece). In one piece, after the first rows, it held the main process
   * 0.3-1.3 s at load 20-27 (renew13). No turn is waited for: this is a person's request, not background work.
   */
  async #wholeInSteps(replica: Replica, version: string, fromMs: number, toMs: number, pick: WindowPick): Promise<{ fetchedAt: string; picked: CapacityRow[] } | null> {
    const sliceMs = this.#deps.sliceMs ?? SLICE_MS;
    await keepUpcomingInSlices(replica, fromMs, toMs, undefined, sliceMs, this.#deps.stepRows);
    const kept = await upcomingKept(replica, fromMs, toMs);
    if (kept?.version !== version) return null;
    pick.reset();
    const { rows } = kept;
    let at = 0;
    const add = () => {
      const row = rows[at];
      if (row === undefined) return false;
      pick.add(row);
      at += 1;
      return at < rows.length;
    };
    // In slices of the clock's SLICE_MS whatever `sliceMs` says: one row a slice (tests' 0) would be a turn per row.
    while (slice(add)) await yieldToEventLoop();
    return pickedUpcomingCapacities(replica, version, fromMs, toMs, pick.pageRids());
  }

  /** Changes the fields given of the account manager's entry for one policy (the others stay); answers it as kept. */
  async setEntry(input: WorklistEntryInput): Promise<WorklistEntry> {
    const { cidrId, ...fields } = WorklistEntryInput.parse(input);
    return this.#deps.states.update(cidrId, fields.note === undefined ? fields : { ...fields, note: fields.note.trim() });
  }

  #now(): Date {
    return this.#deps.now?.() ?? new Date();
  }
}

interface Matching {
  readonly rid: number;
  readonly customer: string | null;
  readonly milestone: WorklistRow['milestone'];
}

/**
 * The worklist's pick over the upcoming policies, in their order: which ones the query's filters keep, the counts by
 * state and the customers (before the state and customer filters), and the first moment a policy passes into or out
 * of the window. Fed the whole window, it is the whole answer; fed the window's first rows (`addUntil`), its page is
 * final and its counts are those of the rows read so far.
 */
class WindowPick {
  readonly stateCounts = dictionary<number>(WORKLIST_STATES.map((state) => [state, 0])) as Record<WorklistState, number>;
  readonly customers = new Set<string>();
  matching: Matching[] = [];
  /** The first moment a policy passes into or out of the window (its launch or end reached by now, or by now + horizon). */
  untilMs: number;

  constructor(
    readonly query: ParsedWorklistQuery,
    readonly fromMs: number,
    readonly toMs: number,
    readonly entries: ReadonlyMap<string, WorklistEntry>,
    readonly customerOf: CustomerOfPolicy,
    readonly today: string,
  ) {
    this.untilMs = fromMs + LOOK_AHEAD_MS;
  }

  reset(): void {
    this.matching = [];
    this.customers.clear();
    for (const state of WORKLIST_STATES) this.stateCounts[state] = 0;
    this.untilMs = this.fromMs + LOOK_AHEAD_MS;
  }

  add(policy: UpcomingCapacity): void {
    const { fromMs, toMs, query } = this;
    for (const at of [policy.launchMs, policy.endMs]) {
      if (at !== null && at > fromMs) this.untilMs = Math.min(this.untilMs, at <= toMs ? at : at - (toMs - fromMs));
    }
    if (!inWindow(policy, fromMs, toMs)) return;
    const entry = this.entries.get(policy.cidrId);
    if (snoozedOut(entry, query.includeSnoozed, this.today)) return;
    const customer = this.customerOf({ account: policy.account });
    if (customer !== null) this.customers.add(customer);
    if (query.customer !== null && customer !== query.customer) return;
    const state = entry?.state ?? 'to-do';
    this.stateCounts[state] += 1;
    if (stateOutside(state, query.states)) return;
    const launchesSoon = policy.launchMs !== null && policy.launchMs > fromMs && policy.launchMs <= toMs;
    this.matching.push({ rid: policy.rid, customer, milestone: launchesSoon ? 'launch' : 'end' });
  }

  /** Adds rows in the list's order; true once `wanted` of them match the filters. */
  addUntil(rows: readonly UpcomingCapacity[], wanted: number): boolean {
    for (const policy of rows) this.add(policy);
    return this.matching.length >= wanted;
  }

  page(): Matching[] {
    return this.matching.slice(this.query.offset, this.query.offset + this.query.limit);
  }

  pageRids(): number[] {
    return this.page().map((row) => row.rid);
  }
}
