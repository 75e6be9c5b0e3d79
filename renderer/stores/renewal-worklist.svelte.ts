import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { AppError } from '../../shared/ipc/result.js';
import type { WorklistEntryInput, WorklistRow, WorklistWindow } from '../../shared/ipc/worklist.js';
import { WORKLIST_DEFAULT_HORIZON, WORKLIST_PAGE, localDay, snoozedOut, stateOutside, type WorklistEntry, type WorklistHorizon, type WorklistState } from '../../shared/ipc/worklist-rules.js';
import { api } from '../lib/api.js';
import { readInWindows, type WindowsRead } from '../lib/read-in-windows.js';
import { Resource } from '../lib/resource.svelte.js';
import { sessionScope } from '../lib/session-scope.js';
import type { RowRange } from '../lib/virtual-range.js';
import { ListSelection } from './list-selection.svelte.js';

/** How long a scroll must rest before pages are read (a fast fling reads only where it stops). */
const FETCH_SETTLE_MS = 70;
const MAX_PARALLEL_READS = 2;

/**
 * The renewal worklist: its filters (horizon, state, customer, snoozed), its
 * rows read a page at a time as they come into view (the view renders only
 * those, so a list of thousands opens as fast as one of ten), the selection
 * for bulk actions, and the account manager's entry per policy. The first
 * page goes through one Resource (counts, customers, where the rows came
 * from); a filter change starts from the top.
 */
export class RenewalWorklistStore {
  horizonDays = $state<WorklistHorizon>(WORKLIST_DEFAULT_HORIZON);
  state = $state<WorklistState | null>(null);
  customer = $state<string | null>(null);
  includeSnoozed = $state(false);
  readonly read = new Resource<WorklistWindow>();
  /** Loaded pages by number (0 is the first), each WORKLIST_PAGE rows but the last. */
  readonly #pages = new SvelteMap<number, WorklistRow[]>();
  readonly #reading = new SvelteSet<number>();
  /** Counts the reads of the first page, so a page of an older list never lands in a newer one. */
  #generation = 0;
  #wanted: RowRange = { start: 0, end: 1 };
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A page past the first could not be read (its rows stay placeholders until the list is read again). */
  pageError = $state<AppError | null>(null);
  readonly selection: ListSelection<WorklistRow>;
  /** The last entry that could not be kept, with the policy it was for. */
  saveError = $state<{ readonly cidrId: string; readonly error: AppError } | null>(null);

  /**
   * `oneCustomer`: the worklist of a customer page, read only once its
   * customer is set (never across every customer) and gone with the page, so
   * it needs no reset when another user's session begins.
   */
  constructor(readonly oneCustomer = false) {
    const total = () => this.total;
    const settled = () => !this.stillCounting;
    this.selection = new ListSelection<WorklistRow>(
      {
        get total() {
          return total();
        },
        get settled() {
          return settled();
        },
        row: (index) => this.row(index),
        loadedEntries: () => this.loadedEntries(),
        readRange: (start, end) => this.#readRange(start, end),
        readAll: () => this.#readRange(0, Number.POSITIVE_INFINITY),
      },
      (row) => row.policy.cidrId,
      { perSession: !oneCustomer },
    );
    if (!oneCustomer) sessionScope.register(() => this.reset());
  }

  get total(): number | null {
    return this.read.value?.total ?? null;
  }

  /**
   * The first rows are shown and the whole answer is still being made: the total, the counts by state and the
   * customers are those of the part read so far, and nothing can be selected until it comes.
   */
  get stillCounting(): boolean {
    return this.read.value?.stillCounting === true;
  }

  /** The row at `index`, or undefined while its page is not loaded. */
  row(index: number): WorklistRow | undefined {
    return this.#pages.get(Math.floor(index / WORKLIST_PAGE))?.[index % WORKLIST_PAGE];
  }

  /** Every loaded row with its index, in the list's order. */
  loadedEntries(): Array<[number, WorklistRow]> {
    return [...this.#pages.keys()]
      .sort((a, b) => a - b)
      .flatMap((page) => (this.#pages.get(page) ?? []).map((row, at): [number, WorklistRow] => [page * WORKLIST_PAGE + at, row]));
  }

  get selectedRows(): WorklistRow[] {
    return this.selection.rows;
  }

  /** Reads the list for the current filters from the top; a selection made under other filters is dropped. */
  load(): Promise<void> {
    if (this.oneCustomer && this.customer === null) return Promise.resolve();
    this.selection.forQuery(JSON.stringify([this.horizonDays, this.state, this.customer, this.includeSnoozed]));
    this.#wanted = { start: 0, end: 1 };
    return this.#readAgain();
  }

  /** The rows now in view: their pages are read once the scroll rests. */
  show(range: RowRange): void {
    this.#wanted = range;
    clearTimeout(this.#timer);
    const generation = this.#generation;
    this.#timer = setTimeout(() => this.#readWanted(generation), FETCH_SETTLE_MS);
  }

  setHorizon(days: WorklistHorizon): Promise<void> {
    this.horizonDays = days;
    return this.load();
  }

  setState(state: WorklistState | null): Promise<void> {
    this.state = state;
    return this.load();
  }

  setCustomer(customer: string | null): Promise<void> {
    this.customer = customer;
    return this.load();
  }

  setIncludeSnoozed(include: boolean): Promise<void> {
    this.includeSnoozed = include;
    return this.load();
  }

  /** Keeps the account manager's entry for one policy, then shows the list as it now stands. */
  async saveEntry(input: WorklistEntryInput): Promise<boolean> {
    const result = await api.worklist.setEntry(input);
    if (!result.ok) {
      this.saveError = { cidrId: input.cidrId, error: result.error };
      return false;
    }
    this.saveError = null;
    // A row its new entry takes out of the list as shown leaves the selection too: a bulk action reaches only rows shown.
    if (this.#leavesList(result.value)) this.selection.drop(input.cidrId);
    await this.#readAgain();
    return true;
  }

  /** Whether the list as filtered leaves out a policy with this entry (the main process's rule, shared/ipc/worklist.ts). */
  #leavesList(entry: WorklistEntry): boolean {
    return stateOutside(entry.state, this.state === null ? [] : [this.state]) || snoozedOut(entry, this.includeSnoozed, localDay(Date.now()));
  }

  /** The rows shown read again (after a change they may move or leave); the old ones stay until the first page answers. */
  refresh(): Promise<void> {
    if (this.oneCustomer && this.customer === null) return Promise.resolve();
    return this.#readAgain();
  }

  /** The copy changed: a list read before (rows or a failure) is read again with its filters, selection and place. */
  readAgain(): Promise<void> {
    if (this.read.value === null && this.read.error === null) return Promise.resolve();
    return this.refresh();
  }

  reset(): void {
    this.#generation += 1;
    clearTimeout(this.#timer);
    this.read.reset();
    this.#pages.clear();
    this.#reading.clear();
    this.pageError = null;
    this.selection.clear();
    this.customer = null;
    this.saveError = null;
  }

  async #readAgain(): Promise<void> {
    const generation = ++this.#generation;
    this.#reading.clear();
    this.pageError = null;
    // The first rows may come before the whole window is read (the main process has not read it yet); the whole
    // answer is then asked at once and replaces them, with the final count.
    const first = await this.#readFirstPage(generation, true);
    if (first?.stillCounting) await this.#readFirstPage(generation, false);
  }

  async #readFirstPage(generation: number, mayStillCount: boolean): Promise<WorklistWindow | null> {
    const result = await this.read.load(() => api.worklist.query({ ...this.#query(0, WORKLIST_PAGE), mayStillCount }));
    if (generation !== this.#generation || !result?.ok) return null;
    this.#pages.clear();
    this.#pages.set(0, result.value.rows);
    this.selection.refreshRows(result.value.rows);
    // Pages past the first are read with the whole answer's count (read as final answers, never still counting).
    if (!result.value.stillCounting) this.#readWanted(generation);
    return result.value;
  }

  /** Reads the pages of the rows in view that are not loaded yet. */
  #readWanted(generation: number): void {
    const total = this.total;
    // A count still being made does not bound the pages yet: the whole answer reads the rows in view when it comes.
    if (generation !== this.#generation || total === null || this.stillCounting) return;
    const first = Math.floor(this.#wanted.start / WORKLIST_PAGE);
    const last = Math.floor((Math.max(this.#wanted.end, this.#wanted.start + 1) - 1) / WORKLIST_PAGE);
    for (let page = first; page <= last && page * WORKLIST_PAGE < total; page += 1) {
      if (this.#reading.size >= MAX_PARALLEL_READS) return;
      if (this.#pages.has(page) || this.#reading.has(page)) continue;
      void this.#readPage(page, generation);
    }
  }

  async #readPage(page: number, generation: number): Promise<void> {
    this.#reading.add(page);
    const result = await api.worklist.query(this.#query(page * WORKLIST_PAGE, WORKLIST_PAGE));
    if (generation !== this.#generation) return;
    this.#reading.delete(page);
    if (!result.ok) {
      this.pageError = result.error;
      return;
    }
    this.pageError = null;
    this.#pages.set(page, result.value.rows);
    this.selection.refreshRows(result.value.rows);
    // The rows in view may have moved on while this page was read.
    this.#readWanted(generation);
  }

  /** Rows `start` to `end` (exclusive) of the list as filtered, read in the channel's windows. */
  #readRange(start: number, end: number): Promise<WindowsRead<WorklistRow>> {
    return readInWindows((offset, limit) => api.worklist.query(this.#query(offset, limit)), { start, end });
  }

  #query(offset: number, limit: number) {
    return {
      horizonDays: this.horizonDays,
      states: this.state ? [this.state] : [],
      customer: this.customer,
      includeSnoozed: this.includeSnoozed,
      offset,
      limit,
    };
  }
}

export const renewalWorklist = new RenewalWorklistStore();
