import { WORKLIST_OPENING, WORKLIST_PAGE, WORKLIST_STATES, WorklistEntryInput, localDay, snoozedOut, stateOutside, WorklistQuery, type WorklistEntry, type WorklistRow, type WorklistState, type WorklistWindow } from '../../../shared/ipc/worklist.js';
import { dictionary } from '../../../shared/records.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { copyState, keepUpcomingInSlices, upcomingCapacities } from '../replica/replica-reads.js';
import type { SliceTurn } from '../replica/requests-first.js';
import { inWindow, type UpcomingCapacity } from './replica-upcoming.js';
import { KeptWindows, type WindowSources } from './kept-windows.js';
import { noCustomers, type CustomerNamer } from './customer-of.js';
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
    const stateCounts = dictionary<number>(WORKLIST_STATES.map((state) => [state, 0])) as Record<WorklistState, number>;
    const customers = new Set<string>();
    let matching: Array<{ readonly rid: number; readonly customer: string | null; readonly milestone: WorklistRow['milestone'] }> = [];
    const fromMs = now.getTime();
    const toMs = fromMs + query.horizonDays * DAY_MS;
    // The first moment a policy passes into or out of the window (its launch or end reached by now, or by now + horizon).
    let untilMs = fromMs + LOOK_AHEAD_MS;

    const pick = (upcoming: readonly UpcomingCapacity[]): number[] => {
      // From nothing each time: a read met by a change on disk is made again.
      matching = [];
      customers.clear();
      for (const state of WORKLIST_STATES) stateCounts[state] = 0;
      untilMs = fromMs + LOOK_AHEAD_MS;
      for (const policy of upcoming) {
        for (const at of [policy.launchMs, policy.endMs]) {
          if (at !== null && at > fromMs) untilMs = Math.min(untilMs, at <= toMs ? at : at - (toMs - fromMs));
        }
        if (!inWindow(policy, fromMs, toMs)) continue;
        const entry = entries.get(policy.cidrId);
        if (snoozedOut(entry, query.includeSnoozed, today)) continue;
        const customer = customerOf({ account: policy.account });
        if (customer !== null) customers.add(customer);
        if (query.customer !== null && customer !== query.customer) continue;
        const state = entry?.state ?? 'to-do';
        stateCounts[state] += 1;
        if (stateOutside(state, query.states)) continue;
        const launchesSoon = policy.launchMs !== null && policy.launchMs > fromMs && policy.launchMs <= toMs;
        matching.push({ rid: policy.rid, customer, milestone: launchesSoon ? 'launch' : 'end' });
      }
      return matching.slice(query.offset, query.offset + query.limit).map((row) => row.rid);
    };

    const key = JSON.stringify(query);
    const { answer, unreadable } = await this.#deps.replica.readWithHealth(
      async (replica) => {
        const copy = await copyState(replica);
        if (!copy) return null;
        // Read before the rows: a commit landing in between leaves what is kept under the older version, never found.
        const sources: WindowSources = { ...copy, entries, customerOf, today };
        const kept = this.#kept.find(key, sources, fromMs);
        if (kept) return { kept };
        const read = await upcomingCapacities(replica, fromMs, toMs + LOOK_AHEAD_MS, pick);
        return read && { read, sources };
      },
      { checkFiles: 'while-reading' },
    );
    const base = { offset: query.offset, stateCounts, ...(unreadable ? { unreadable } : {}) };
    if (!answer) return { ...base, rows: [], total: 0, customers: [], origin: null };
    if ('kept' in answer) return answer.kept;
    const { read, sources } = answer;
    const page = matching.slice(query.offset, query.offset + query.limit);
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
      total: matching.length,
      customers: [...customers].sort((a, b) => a.localeCompare(b)),
      origin: { source: 'replica', fetchedAt: read.fetchedAt },
    };
    // Every row found (none gone between the ids and their records), and a page at most: what the view asks as it opens.
    if (rows.length === page.length && query.limit <= WORKLIST_PAGE) this.#kept.keep(key, sources, fromMs, untilMs, window);
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
    const fromMs = this.#now().getTime();
    const toMs = fromMs + WORKLIST_OPENING.horizonDays * DAY_MS + LOOK_AHEAD_MS;
    // The files are checked by the query after it, which reads them again if they changed.
    await this.#deps.replica.readWithHealth(
      async (replica) => {
        await keepUpcomingInSlices(replica, fromMs, toMs, this.#deps.turn, this.#deps.sliceMs);
        return null;
      },
      { checkFiles: false },
    );
    return this.query(WORKLIST_OPENING);
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
