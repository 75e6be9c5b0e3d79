import { z } from 'zod';
import { CapacityStatus } from '../../shared/api/capacity-status.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { SkippedItem } from '../../shared/api/tolerant.js';
import { PAGING } from '../../shared/api/contract-choices.js';
import { SortOrder } from '../../shared/api/sort-order.js';
import type { UnreadableCopy } from '../../shared/ipc/offline.js';
import { LocalSortColumn } from '../../shared/ipc/local-sort.js';
import type { CustomerFilter } from '../../shared/ipc/customer-key.js';
import type { AppError } from '../../shared/ipc/result.js';
import type { Origin } from '../../shared/ipc/sourced.js';
import { api } from '../lib/api.js';
import { LatestOnly } from '../lib/latest-only.js';
import { sessionScope } from '../lib/session-scope.js';
import { nowIso } from '../lib/dates.js';
import { loadPersisted, savePersisted } from '../lib/persisted.js';
import { onFirstUse } from '../lib/first-use.js';
import { pagesOfRange, type RowRange } from '../lib/virtual-range.js';
import { CapacitySelection } from './capacity-selection.svelte.js';
import { FilterForm, NO_FILTERS, queryFilters, type FilterProblem } from '../lib/capacity-filters.js';

/** Rows per window asked of the main process: the service's largest page, so before the first sync a window is one page. */
export const LIST_PAGE_SIZE = PAGING.maxPageSize;
/** How long a scroll must rest before pages are fetched (a fast fling fetches only where it stops). */
const FETCH_SETTLE_MS = 70;
const MAX_PARALLEL_FETCHES = 3;
/**
 * The fewest rows a keystroke asks for: its answer carries the rows in view and as many again below them
 * (the rest of the page comes when scrolled to), not a whole page: each row is read, checked, sent and parsed
 * whole, and at 100 rows that was a good part of the time from a key to its frame (issue 25, branch keys8).
 */
const KEYSTROKE_MIN_ROWS = 20;
const DESCENDING_FIRST: ReadonlySet<LocalSortColumn> = new Set(['createdDate', 'launch', 'end', 'qty', 'ourPrice', 'savings', 'savingsPercentage', 'fee']);

/** The list's kept state, read back through this (made at its first use: first-use.ts). */
const ListPrefs = onFirstUse(() =>
  z.object({
    status: CapacityStatus.nullable(),
    sortBy: LocalSortColumn.catch('createdDate'),
    sortOrder: SortOrder,
    /** Account, instance type, zone and launch window, as typed. */
    filters: FilterForm().catch(NO_FILTERS),
    /** The first row in view: the "page" the user was on. */
    topIndex: z.number().int().min(0),
  }),
);
type ListPrefs = z.infer<ReturnType<typeof ListPrefs>>;
export const LIST_PREFS_KEY = 'capacity-desk.capacity-list.v1';

/**
 * The capacity policies list: windows of rows fetched from the main process as
 * they come into view, answered by the local replica once it holds the list
 * (free-text search and sort by any column), by the service's pages before.
 * The filter, the sort and the position are kept in localStorage so they
 * survive navigation and restarts. One instance for the app; it holds one
 * user's rows at a time.
 */
class CapacityListStore {
  status = $state<CapacityStatus | null>(null);
  /** Free text matched against id, name, account, instance type and zone (answered locally). */
  text = $state('');
  /** One customer's policies (a key of the book), those of no customer, or all (null); answered by the local copy. */
  customer = $state<CustomerFilter | null>(null);
  sortBy = $state<LocalSortColumn>('createdDate');
  /** The filters beside the status, as typed; applied while the local copy answers. */
  filters = $state.raw<FilterForm>(NO_FILTERS);
  /** What is wrong with a typed filter (then the list keeps the last good filters). */
  filterProblem = $state<FilterProblem | null>(null);
  sortOrder = $state<SortOrder>(PAGING.defaultSortOrder);
  /** Where the rows on screen came from, and when they were fetched. */
  origin = $state<Origin | null>(null);
  /** The local replica answers: search and every sort work. False while the list pages the service. */
  local = $state(true);
  /** This user's local copy exists but could not be read. */
  unreadable = $state<UnreadableCopy | null>(null);
  topIndex = $state(0);
  /** Rows matching the filter on the server; null until the first page answers. */
  total = $state<number | null>(null);
  error = $state<AppError | null>(null);
  fetching = $state(0);
  /** ISO instant of the last page that arrived. */
  loadedAt = $state<string | null>(null);
  /** Bumped whenever pages change, so readers of row() re-run. */
  version = $state(0);

  #pages = new Map<number, CapacityRow[]>();
  /** Told each page's rows as they land (the selection's records follow them: capacitySelection below). */
  #rowsLanded: (rows: readonly CapacityRow[]) => void = () => undefined;
  /** How many rows of each loaded page were asked for: fewer than a page after a keystroke (see KEYSTROKE_MIN_ROWS). */
  #asked = new Map<number, number>();
  /** Rows the table shows at once (its last visible range), 0 until it says. */
  #rowsInView = 0;
  /** Items of each loaded page that could not be shown (no id). */
  #skipped = new Map<number, SkippedItem[]>();
  #inFlight = new Set<number>();
  #latest = new LatestOnly();
  /** Not opened yet for this user: the first open starts where the user left off. */
  #fresh = true;
  #stale = false;
  #wanted: RowRange = { start: 0, end: 1 };
  #restored = false;
  /**
   * A new search or customer is on its way: the pages still shown are the previous question's, dropped when its first
   * answer lands. The view takes no row into the selection meanwhile (review11: a row of the previous customer ticked
   * in that moment stayed selected under the new one and reached the bulk cancel).
   */
  replacing = $state(false);
  /** A keystroke's request: none, on its way, or on its way with a newer text waiting for it (#askForText). */
  #keystroke: 'none' | 'asking' | 'waiting' = 'none';
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    // A position still waiting for its debounced save is written before the window goes away.
    globalThis.addEventListener?.('pagehide', () => this.flush());
    // Another user starts from nothing; their first open fetches from the saved position.
    sessionScope.register(() => {
      this.#clear();
      this.#fresh = true;
      // A customer is one user's: the next user's list starts with every policy.
      this.customer = null;
    });
  }

  /** Writes the preferences now (the view calls it when it closes). */
  flush(): void {
    if (this.#saveTimer !== undefined) this.#savePrefs();
  }

  get pageCount(): number {
    return this.total === null ? 0 : Math.max(1, Math.ceil(this.total / LIST_PAGE_SIZE));
  }

  /** 1-based page of the first row in view. */
  get currentPage(): number {
    return Math.floor(this.topIndex / LIST_PAGE_SIZE) + 1;
  }

  /** The row at an index, or undefined while its page is not loaded. */
  row(index: number): CapacityRow | undefined {
    void this.version;
    return this.#pages.get(Math.floor(index / LIST_PAGE_SIZE) + 1)?.[index % LIST_PAGE_SIZE];
  }

  /** Every row loaded so far (the command palette searches them). */
  loadedRows(): CapacityRow[] {
    void this.version;
    return [...this.#pages.values()].flat();
  }

  /** Every loaded row with its index, in the list's order (a selection's range reads them). */
  loadedEntries(): Array<[number, CapacityRow]> {
    void this.version;
    const pages = [...this.#pages.keys()].sort((a, b) => a - b);
    return pages.flatMap((page) => (this.#pages.get(page) ?? []).map((row, at): [number, CapacityRow] => [(page - 1) * LIST_PAGE_SIZE + at, row]));
  }

  /** Items of the loaded pages that could not be shown, positioned in the whole list. */
  skipped(): SkippedItem[] {
    void this.version;
    return [...this.#skipped].flatMap(([page, items]) => items.map((item) => ({ ...item, index: (page - 1) * LIST_PAGE_SIZE + item.index })));
  }

  /**
   * The view calls this when it opens: another user starts from nothing, and
   * a list that a purchase or a cancel changed is fetched again.
   */
  open(): void {
    this.#restorePrefs();
    if (this.#fresh) {
      this.#fresh = false;
      this.#clear();
      // Start where the user left off: the page holding the saved position comes first.
      this.#wanted = { start: this.topIndex, end: this.topIndex + 1 };
      this.#fetchWanted();
    } else if (this.#stale || this.total === null || this.error) {
      this.refresh();
    }
  }

  setStatus(status: CapacityStatus | null): void {
    this.#restorePrefs();
    if (status === this.status) return;
    this.status = status;
    this.#restart();
  }

  /**
   * Another customer is another list, asked as a keystroke is: the rows on screen stay (the table busy) until the
   * first answer replaces them, and that answer brings the rows in view, not a page. Emptying the table first
   * made every row a placeholder and back, and the footer and summary go and come, in the frame a person waits for.
   */
  setCustomer(customer: CustomerFilter | null): void {
    if (customer === this.customer) return;
    this.customer = customer;
    this.#replaceRows();
    this.#savePrefsSoon();
    void this.#fetch(1, this.#firstRowsLimit());
  }

  setSortOrder(order: SortOrder): void {
    this.#restorePrefs();
    if (order === this.sortOrder) return;
    this.sortOrder = order;
    this.#restart();
  }

  /** Sorts by a column; the same column again reverses the order. */
  sortByColumn(column: LocalSortColumn): void {
    this.#restorePrefs();
    if (column === this.sortBy) {
      this.sortOrder = this.sortOrder === 'asc' ? 'desc' : 'asc';
    } else {
      this.sortBy = column;
      // Dates and figures read best largest first; names and codes A to Z.
      this.sortOrder = DESCENDING_FIRST.has(column) ? 'desc' : 'asc';
    }
    this.#restart();
  }

  /** New filters beside the status; a date that is not a day is said and changes nothing else. */
  setFilters(form: FilterForm): void {
    this.#restorePrefs();
    const checked = queryFilters(form);
    if (!checked.ok) {
      this.filterProblem = checked.problem;
      return;
    }
    this.filterProblem = null;
    if (JSON.stringify(form) === JSON.stringify(this.filters)) return;
    this.filters = form;
    this.#runningAt = Date.now();
    this.#restart();
  }

  /** When "running" is judged: as the filters were set (each page and the selection ask the same question). */
  #runningAt = Date.now();

  /** The filters as the main process reads them (the last good ones). */
  get queryFilters() {
    const checked = queryFilters(this.filters, this.#runningAt);
    return checked.ok ? checked.filters : undefined;
  }

  /** The active policies running now (the overview's savings tile and the customer page count these), of a customer or all. */
  showRunning(customer: CustomerFilter | null): void {
    this.#restorePrefs();
    this.status = 'ACTIVE';
    this.customer = customer;
    // Exactly what the figure counts: no search or other filter left from before narrows it.
    this.text = '';
    this.filters = { ...NO_FILTERS, running: 'running' };
    this.filterProblem = null;
    this.#runningAt = Date.now();
    this.#restart();
  }

  /** A saved view: its status, search, sort and filters at once (one fetch, not four). */
  applyView(view: { status: CapacityStatus | null; text: string; sortBy: LocalSortColumn; sortOrder: SortOrder; filters: FilterForm }): void {
    this.#restorePrefs();
    this.status = view.status;
    this.text = view.text;
    this.sortBy = view.sortBy;
    this.sortOrder = view.sortOrder;
    this.filters = queryFilters(view.filters).ok ? view.filters : NO_FILTERS;
    this.#runningAt = Date.now();
    this.filterProblem = null;
    this.#restart();
  }

  setText(text: string): void {
    this.#restorePrefs();
    if (text === this.text) return;
    this.text = text;
    // Typing: the rows on screen stay until the answer to the new text replaces them (no flash of empty rows per keystroke).
    this.#replaceRows();
    this.#askForText();
  }

  /** A new question of the list from its top: answers to the last are dropped, its rows shown until the first new answer. */
  #replaceRows(): void {
    this.topIndex = 0;
    this.#latest.drop();
    this.#inFlight.clear();
    this.error = null;
    this.replacing = true;
    this.#wanted = { start: 0, end: 1 };
  }

  /** Rows a new question's first answer brings: those in view and as many again (a page until the table has said). */
  #firstRowsLimit(): number {
    return this.#rowsInView > 0 ? Math.min(LIST_PAGE_SIZE, Math.max(KEYSTROKE_MIN_ROWS, 2 * this.#rowsInView)) : LIST_PAGE_SIZE;
  }

  /**
   * Latest wins: while a keystroke's answer is on its way, the next keys only note that the text changed, and
   * the text as it is then is asked for once that answer is in (the main process answers one request at a time:
   * each key's own request, all answered and all but the last dropped, made the last wait behind the others).
   */
  #askForText(): void {
    if (this.#keystroke !== 'none') {
      this.#keystroke = 'waiting';
      return;
    }
    this.#keystroke = 'asking';
    void this.#fetch(1, this.#firstRowsLimit(), true);
  }

  /** The rows now in view: remembered as the position, and fetched if missing. */
  show(range: RowRange): void {
    this.#wanted = range;
    if (range.end > range.start) this.#rowsInView = range.end - range.start;
    if (range.end > range.start && range.start !== this.topIndex) {
      this.topIndex = range.start;
      this.#savePrefsSoon();
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#fetchWanted(), FETCH_SETTLE_MS);
  }

  /** Fetches the rows in view again, keeping the old ones on screen until the new ones arrive. */
  /** `then` is told the rows of each page as they land. */
  followRows(then: (rows: readonly CapacityRow[]) => void): void {
    this.#rowsLanded = then;
  }

  refresh(): void {
    this.#latest.drop();
    this.#stale = false;
    this.error = null;
    this.#inFlight.clear();
    const keep = new Set(pagesOfRange(this.#wanted, LIST_PAGE_SIZE));
    for (const page of [...this.#pages.keys()]) if (!keep.has(page)) this.#forgetPage(page);
    this.#fetchWanted(true);
  }

  retry(): void {
    this.refresh();
  }

  /** The local copy was refreshed: a list on screen asks again (the old rows stay until the new ones arrive). */
  replicaUpdated(): void {
    if (this.total !== null) this.refresh();
    else this.#stale = true;
  }

  /** Something changed on the server (purchase, cancel): fetch again on the next open, or now if open. */
  invalidate(): void {
    this.#stale = true;
  }

  /** A record the app just got back (configure, purchase): shown at once where loaded. */
  replace(policy: CapacityRow): void {
    for (const rows of this.#pages.values()) {
      const at = rows.findIndex((row) => row.cidrId === policy.cidrId);
      if (at >= 0) {
        rows[at] = policy;
        this.version++;
      }
    }
  }

  #restart(): void {
    this.topIndex = 0;
    this.#savePrefs();
    this.#clear();
    this.#wanted = { start: 0, end: 1 };
    this.#fetchWanted();
  }

  #clear(): void {
    this.replacing = false;
    if (this.#keystroke === 'waiting') this.#keystroke = 'asking';
    this.#latest.drop();
    this.#pages.clear();
    this.#asked.clear();
    this.#skipped.clear();
    this.#inFlight.clear();
    this.total = null;
    this.error = null;
    this.#stale = false;
    this.version++;
  }

  /** The previous question's pages, shown while a new one was on its way, dropped. */
  #dropShown(): void {
    this.replacing = false;
    this.#pages.clear();
    this.#asked.clear();
    this.#skipped.clear();
    this.total = null;
    this.version++;
  }

  #fetchWanted(force = false): void {
    const wanted = pagesOfRange(this.#wanted.end > this.#wanted.start ? this.#wanted : { start: 0, end: 1 }, LIST_PAGE_SIZE);
    for (const page of wanted) {
      if (this.#inFlight.size >= MAX_PARALLEL_FETCHES) break;
      if (this.#inFlight.has(page) || (!force && this.#covers(page))) continue;
      if (this.total !== null && page > 1 && (page - 1) * LIST_PAGE_SIZE >= this.total) continue;
      void this.#fetch(page);
    }
  }

  #keystrokeAnswered(): void {
    const waiting = this.#keystroke === 'waiting';
    this.#keystroke = 'none';
    if (waiting) this.#askForText();
  }

  /** The page is loaded, and as far as the rows wanted reach (a keystroke's page holds only the rows it asked for). */
  #covers(page: number): boolean {
    const asked = this.#asked.get(page);
    return asked !== undefined && Math.min(this.#wanted.end, page * LIST_PAGE_SIZE) <= (page - 1) * LIST_PAGE_SIZE + asked;
  }

  #forgetPage(page: number): void {
    this.#pages.delete(page);
    this.#asked.delete(page);
  }

  async #fetch(page: number, limit: number = LIST_PAGE_SIZE, keystroke = false): Promise<void> {
    const ticket = this.#latest.join();
    this.#inFlight.add(page);
    this.fetching++;
    let result: Awaited<ReturnType<typeof api.capacity.list>>;
    try {
      result = await api.capacity.list({
        offset: (page - 1) * LIST_PAGE_SIZE,
        limit,
        text: this.text,
        sortBy: this.sortBy,
        sortOrder: this.sortOrder,
        ...(this.status ? { status: this.status } : {}),
        ...(this.customer ? { customer: this.customer } : {}),
        ...(this.queryFilters ? { filters: this.queryFilters } : {}),
      });
    } finally {
      // The waiting text is asked for before this answer stops counting as a fetch: the table stays busy throughout.
      // Even if the call threw (neither host lets it today), typing must not stay held behind it.
      if (keystroke) this.#keystrokeAnswered();
      this.fetching--;
    }
    if (!ticket.current()) return;
    this.#inFlight.delete(page);
    if (!result.ok) {
      // The new question's first answer failed: the previous question's rows must not stand under it (the error says so).
      if (this.replacing) this.#dropShown();
      this.error = result.error;
      return;
    }
    this.error = null;
    const answer = result.value;
    // Before the rows shown are dropped: the records they hold again are kept as the very objects shown.
    const rows = sameAsShown(this.#pages.get(page), answer.rows);
    if (this.replacing) this.#dropShown();
    // The replica took over from the service (or the other way) while scrolling: windows of both never mix.
    if (this.origin && this.origin.source !== answer.origin.source && this.#pages.size > 0) {
      this.origin = answer.origin;
      this.refresh();
      return;
    }
    this.total = answer.total;
    this.origin = answer.origin;
    this.local = answer.local;
    this.unreadable = answer.unreadable ?? null;
    this.#pages.set(page, rows);
    this.#rowsLanded(rows);
    this.#asked.set(page, limit);
    this.#skipped.set(page, answer.skipped);
    this.loadedAt = nowIso();
    this.version++;
    // The rows in view may have moved on while this page was in flight.
    this.#fetchWanted();
  }

  /**
   * The kept filter, sort and place, once, before the list is first opened or
   * changed (an overview tile sets the filter before the list opens); they
   * are read from the main process before the app mounts.
   */
  #restorePrefs(): void {
    if (this.#restored) return;
    this.#restored = true;
    const saved = loadPersisted(LIST_PREFS_KEY, ListPrefs);
    if (!saved) return;
    this.status = saved.status;
    this.sortBy = saved.sortBy;
    this.sortOrder = saved.sortOrder;
    this.filters = saved.filters;
    this.#runningAt = Date.now();
    this.topIndex = saved.topIndex;
  }

  #savePrefsSoon(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.#savePrefs(), 250);
  }

  #savePrefs(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    const prefs: ListPrefs = { status: this.status, sortBy: this.sortBy, sortOrder: this.sortOrder, filters: this.filters, topIndex: this.topIndex };
    savePersisted(LIST_PREFS_KEY, prefs);
  }
}

/** Each row's record as JSON, once per object (rows are replaced, never changed in place). */
const recordTexts = new WeakMap<CapacityRow, string>();
function recordText(row: CapacityRow): string {
  let text = recordTexts.get(row);
  if (text === undefined) recordTexts.set(row, (text = JSON.stringify(row)));
  return text;
}

/**
 * An answer's rows, each one that is the same record as a row shown on that page taken as the object shown: the
 * table has nothing to redo for it (a key that narrows a search mostly brings back the rows on screen, and each
 * cell of each row was worked out and written again).
 */
function sameAsShown(shown: readonly CapacityRow[] | undefined, rows: CapacityRow[]): CapacityRow[] {
  if (shown === undefined || shown.length === 0) return rows;
  const byId = new Map(shown.map((row) => [row.cidrId, row]));
  return rows.map((row) => {
    const before = byId.get(row.cidrId);
    return before !== undefined && recordText(before) === recordText(row) ? before : row;
  });
}

export const capacityList = new CapacityListStore();

/** The capacity list's selected rows, for its bulk actions. */
export const capacitySelection = new CapacitySelection(capacityList);
// A selected row the list answers again changed (a refresh, a cancel elsewhere): the bulk bar's review, quote and
// export read the record the list shows, not the one taken at the click (review12; the worklist's selection does so).
capacityList.followRows((rows) => capacitySelection.refreshRows(rows));
