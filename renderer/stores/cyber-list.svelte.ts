import { CYBER_STATUSES, PAGING } from '../../shared/api/contract-choices.js';
import type { CyberStatus } from '../../shared/api/cyber.js';
import type { CyberRow } from '../../shared/api/readers.js';
import type { SkippedItem } from '../../shared/api/tolerant.js';
import type { SortOrder } from '../../shared/api/paging.js';
import { CustomerId } from '../../shared/ipc/policy-refs.js';
import type { AppError } from '../../shared/ipc/result.js';
import type { Origin } from '../../shared/ipc/sourced.js';
import { api } from '../lib/api.js';
import { LatestOnly } from '../lib/latest-only.js';
import { sessionScope } from '../lib/session-scope.js';

/** Long enough not to ask the service on every keystroke, short enough to feel live. */
export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const STATUS_CHOICES: readonly CyberStatus[] = CYBER_STATUSES;

/** What identifies the list being shown; a change of any part asks the service again. */
interface Query {
  readonly customerId: string;
  readonly page: number;
  readonly pageSize: number;
  readonly sortOrder: SortOrder;
  readonly status: CyberStatus | '';
  readonly policyName: string;
}

/**
 * The disaster-recovery list: one customer's policies, one page at a time,
 * filtered and sorted by the service. A module-level instance, so the list is
 * as the user left it when they come back from a policy.
 */
class CyberListStore {
  /** The customer whose policies are shown; null until one is chosen. */
  customerId = $state<string | null>(null);
  /** Customer ids used with this profile, most recent first (kept by the main process). */
  recentCustomers = $state<string[]>([]);
  /** A problem with the customer itself (malformed, or unknown: 404), shown at the customer field. */
  customerError = $state<AppError | null>(null);

  page = $state(1);
  pageSize = $state<number>(PAGING.defaultPageSize);
  sortOrder = $state<SortOrder>(PAGING.defaultSortOrder);
  status = $state<CyberStatus | ''>('');
  /** What is typed in the search box; sent after a pause in typing. */
  nameInput = $state('');
  /** The name filter the rows on screen were fetched with. */
  appliedName = $state('');

  items = $state<CyberRow[]>([]);
  /** Items of the page on screen that could not be shown (no id). */
  skipped = $state<SkippedItem[]>([]);
  /** Where the page on screen came from (the service, or the local copy when it cannot be reached). */
  origin = $state<Origin | null>(null);
  total = $state(0);
  /** The copy answered from a kept list that may lack some of the list's policies: `total` is then "at least". */
  keptListPartial = $state(false);
  loading = $state(false);
  /** A failure of the list other than an unknown customer. */
  error = $state<AppError | null>(null);
  /** True once rows (or an empty answer) for the current customer have arrived. */
  loaded = $state(false);
  /** False until the remembered customers are known, so "no customer yet" never flashes. */
  ready = $state(false);
  /** The policy last opened from the list, to put focus back on its row on return. */
  lastOpened = $state<string | null>(null);

  readonly pageCount = $derived(Math.max(1, Math.ceil(this.total / this.pageSize)));
  readonly filtered = $derived(this.status !== '' || this.appliedName !== '');

  #latest = new LatestOnly();
  #debounce: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    // Another user's customers and rows must never show.
    sessionScope.register(() => this.#reset());
  }

  /**
   * Called when the view opens (another user's list was dropped by the session scope): reads the
   * remembered customers and opens the last one used.
   */
  async open(profileId: string): Promise<void> {
    const scope = sessionScope.current;
    const profiles = await api.profiles.list();
    if (sessionScope.current !== scope) return;
    if (profiles.ok) this.recentCustomers = profiles.value.find((p) => p.id === profileId)?.lastCustomerIds ?? [];
    const last = this.recentCustomers[0];
    const opening = this.customerId === null && last ? this.chooseCustomer(last) : this.customerId !== null && !this.loading ? this.load() : null;
    this.ready = true;
    await opening;
  }

  /** Returns the field message when the id cannot be one; null when the list is being fetched. */
  async chooseCustomer(text: string): Promise<string | null> {
    const parsed = CustomerId.safeParse(text);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Enter a customer id';
      this.customerError = { kind: 'invalid-input', field: 'customerId', message };
      return message;
    }
    if (parsed.data !== this.customerId) {
      this.customerId = parsed.data;
      this.page = 1;
      this.status = '';
      this.nameInput = '';
      this.appliedName = '';
      this.items = [];
      this.origin = null;
      this.total = 0;
      this.loaded = false;
    }
    await this.load();
    return null;
  }

  setStatus(status: CyberStatus | ''): void {
    this.status = status;
    this.page = 1;
    void this.load();
  }

  toggleSort(): void {
    this.sortOrder = this.sortOrder === 'desc' ? 'asc' : 'desc';
    this.page = 1;
    void this.load();
  }

  goToPage(page: number): void {
    const next = Math.min(Math.max(1, Math.trunc(page)), this.pageCount);
    if (next === this.page) return;
    this.page = next;
    void this.load();
  }

  setPageSize(size: number): void {
    this.pageSize = size;
    this.page = 1;
    void this.load();
  }

  /** Each keystroke restarts the pause; the search goes out once typing stops. */
  typeName(text: string): void {
    this.nameInput = text;
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => this.applyName(), SEARCH_DEBOUNCE_MS);
  }

  /** Sends the typed name now (Enter in the search box). */
  applyName(): void {
    clearTimeout(this.#debounce);
    const name = this.nameInput.trim();
    if (name === this.appliedName) return;
    this.appliedName = name;
    this.page = 1;
    void this.load();
  }

  clearFilters(): void {
    clearTimeout(this.#debounce);
    this.nameInput = '';
    this.appliedName = '';
    this.status = '';
    this.page = 1;
    void this.load();
  }

  async load(): Promise<void> {
    const query = this.#query();
    if (!query) return;
    const ticket = this.#latest.begin();
    this.loading = true;
    const result = await api.cyber.list({
      customerId: query.customerId,
      page: query.page,
      pageSize: query.pageSize,
      sortOrder: query.sortOrder,
      ...(query.status ? { status: query.status } : {}),
      ...(query.policyName ? { policyName: query.policyName } : {}),
    });
    // An older answer that arrives after a newer request is dropped.
    if (!ticket.current()) return;
    this.loading = false;
    if (!result.ok) {
      // The customer is the only path part of the list, so a 404 here names it.
      if (result.error.kind === 'not-found') {
        this.customerError = result.error;
        this.error = null;
        this.items = [];
        this.total = 0;
        this.loaded = false;
      } else {
        this.error = result.error;
      }
      return;
    }
    this.error = null;
    this.customerError = null;
    this.items = result.value.data;
    this.skipped = result.value.skipped;
    this.origin = result.value.origin;
    this.total = result.value.total;
    this.keptListPartial = result.value.keptListPartial === true;
    this.loaded = true;
    // A page that the filters emptied (fewer results now): step back to the last real one.
    if (this.items.length === 0 && this.total > 0 && this.page > this.pageCount) {
      this.page = this.pageCount;
      void this.load();
    }
    if (this.recentCustomers[0] !== query.customerId) void this.#remember(query.customerId);
  }

  /** Every row of the current filters and sort, for an export "as shown" beyond the visible page. */
  async allRows(): Promise<{ ok: true; rows: CyberRow[] } | { ok: false; error: AppError }> {
    const query = this.#query();
    if (!query) return { ok: true, rows: [] };
    const rows: CyberRow[] = [];
    let left = 0;
    for (let page = 1; ; page += 1) {
      const result = await api.cyber.list({
        customerId: query.customerId,
        page,
        pageSize: PAGING.maxPageSize,
        sortOrder: query.sortOrder,
        ...(query.status ? { status: query.status } : {}),
        ...(query.policyName ? { policyName: query.policyName } : {}),
      });
      if (!result.ok) return { ok: false, error: result.error };
      rows.push(...result.value.data);
      left += result.value.skipped.length;
      if (result.value.data.length === 0 || rows.length + left >= result.value.total) return { ok: true, rows };
    }
  }

  #query(): Query | null {
    if (this.customerId === null) return null;
    return {
      customerId: this.customerId,
      page: this.page,
      pageSize: this.pageSize,
      sortOrder: this.sortOrder,
      status: this.status,
      policyName: this.appliedName,
    };
  }

  async #remember(customerId: string): Promise<void> {
    this.recentCustomers = [customerId, ...this.recentCustomers.filter((id) => id !== customerId)];
    const result = await api.profiles.rememberCustomer({ customerId });
    // Not remembering is harmless (the id is typed again next time), so a failure is not shown.
    if (result.ok) this.recentCustomers = result.value.lastCustomerIds;
  }

  #reset(): void {
    clearTimeout(this.#debounce);
    this.#latest.drop();
    this.customerId = null;
    this.recentCustomers = [];
    this.customerError = null;
    this.page = 1;
    this.pageSize = PAGING.defaultPageSize;
    this.sortOrder = PAGING.defaultSortOrder;
    this.status = '';
    this.nameInput = '';
    this.appliedName = '';
    this.items = [];
    this.total = 0;
    this.loading = false;
    this.error = null;
    this.loaded = false;
    this.ready = false;
    this.lastOpened = null;
  }
}

export const cyberList = new CyberListStore();
