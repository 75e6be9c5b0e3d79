import type { CapacityPolicy, SearchInput } from '../../shared/api/capacity.js';
import type { CapacityRow, OfferingRow } from '../../shared/api/readers.js';
import type { SkippedItem } from '../../shared/api/tolerant.js';
import type { PolicyMatch } from '../../shared/ipc/offline.js';
import type { AppError } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { LatestOnly } from '../lib/latest-only.js';
import { sessionScope } from '../lib/session-scope.js';

/** How many ready policies to fetch at a time beside the search. */
export const READY_PAGE_SIZE = 25;

/** The policies waiting to be bought, oldest first (the ones whose launch is nearest come first). */
class ReadyPolicies {
  items = $state<CapacityRow[]>([]);
  total = $state<number | null>(null);
  error = $state<AppError | null>(null);
  loading = $state(false);
  /** The searched offering the list is narrowed to; null shows every ready policy. */
  match = $state<PolicyMatch | null>(null);
  /** The answer is narrowed to `match` (the local copy answers; before it is filled the service cannot narrow). */
  narrowed = $state(false);
  #page = 0;
  #stale = false;
  /** Opened at least once: a new match is read at once, else on the first open. */
  #opened = false;
  #latest = new LatestOnly();

  constructor() {
    sessionScope.register(() => {
      this.#latest.drop();
      this.items = [];
      this.total = null;
      this.error = null;
      this.loading = false;
    });
  }

  get hasMore(): boolean {
    return this.total !== null && this.items.length < this.total;
  }

  /** Read on first open, for each new user (the session scope empties it), and when stale or failed. */
  open(): void {
    this.#opened = true;
    if (this.#stale || this.total === null || this.error) void this.reload();
  }

  async reload(): Promise<void> {
    this.#stale = false;
    this.#page = 0;
    await this.#fetch(true);
  }

  async loadMore(): Promise<void> {
    if (!this.loading && this.hasMore) await this.#fetch(false);
  }

  /** Bought here or elsewhere: gone from this list at once. */
  remove(cidrId: string): void {
    const before = this.items.length;
    this.items = this.items.filter((policy) => policy.cidrId !== cidrId);
    if (this.total !== null && this.items.length < before) this.total -= 1;
  }

  invalidate(): void {
    this.#stale = true;
  }

  /** Narrows the list to what was searched (instance type, platform, zone), or back to every policy. */
  setMatch(match: PolicyMatch | null): void {
    const same =
      match === this.match ||
      (match !== null &&
        this.match !== null &&
        match.instanceType === this.match.instanceType &&
        match.platform === this.match.platform &&
        match.availabilityZone === this.match.availabilityZone);
    if (same) return;
    this.match = match;
    if (this.#opened) void this.reload();
  }

  async #fetch(replace: boolean): Promise<void> {
    const ticket = this.#latest.begin();
    const page = replace ? 1 : this.#page + 1;
    this.loading = true;
    const result = await api.capacity.list({
      offset: (page - 1) * READY_PAGE_SIZE,
      limit: READY_PAGE_SIZE,
      sortOrder: 'asc',
      status: 'READY_FOR_PURCHASE',
      ...(this.match ? { match: this.match } : {}),
    });
    if (!ticket.current()) return;
    this.loading = false;
    if (!result.ok) {
      this.error = result.error;
      return;
    }
    this.error = null;
    this.#page = page;
    this.total = result.value.total;
    this.narrowed = this.match !== null && result.value.local;
    const known = new Set(replace ? [] : this.items.map((policy) => policy.cidrId));
    const fresh = result.value.rows.filter((policy) => !known.has(policy.cidrId));
    this.items = replace ? fresh : [...this.items, ...fresh];
  }
}

/** The last search and its answer; kept while the app runs so coming back shows it. */
class SearchResults {
  offerings = $state<OfferingRow[] | null>(null);
  /** Offerings of the last answer that could not be shown (no title). */
  skipped = $state<SkippedItem[]>([]);
  error = $state<AppError | null>(null);
  busy = $state(false);
  /** The query the shown results answer. */
  query = $state<SearchInput | null>(null);
  /** The record of the last purchase made from this view, until dismissed or a new search starts. */
  lastPurchase = $state<CapacityPolicy | null>(null);
  #latest = new LatestOnly();

  constructor() {
    // Another user starts with no results and no purchase record.
    sessionScope.register(() => {
      this.clear();
      this.lastPurchase = null;
    });
  }

  async run(input: SearchInput): Promise<AppError | null> {
    const ticket = this.#latest.begin();
    this.busy = true;
    this.error = null;
    // A new search is a new errand: the card of the purchase before it would read as part of the new answer.
    this.lastPurchase = null;
    const result = await api.capacity.search(input);
    if (!ticket.current()) return null;
    this.busy = false;
    if (result.ok) {
      this.offerings = result.value.items;
      this.skipped = result.value.skipped;
      this.query = input;
      return null;
    }
    this.error = result.error;
    this.offerings = null;
    this.query = input;
    return result.error;
  }

  clear(): void {
    this.#latest.drop();
    this.offerings = null;
    this.error = null;
    this.query = null;
    this.busy = false;
  }
}

export const readyPolicies = new ReadyPolicies();
export const searchResults = new SearchResults();
