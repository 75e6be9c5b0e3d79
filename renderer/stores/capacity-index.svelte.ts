import type { AppError } from '../../shared/ipc/result.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import { PAGING } from '../../shared/api/contract-choices.js';
import { api } from '../lib/api.js';
import { LatestOnly } from '../lib/latest-only.js';
import { sessionScope } from '../lib/session-scope.js';
import type { PolicyEntry } from '../lib/palette-search.js';
import { PALETTE_LOOKUP_LIMIT, PALETTE_NEWEST_PAGES } from '../lib/palette-sizes.js';
import { capacityList } from './capacity-list.svelte.js';

/** The newest policies the palette indexes by name; any policy can still be opened by its full id. */
export const INDEX_MAX_PAGES = PALETTE_NEWEST_PAGES;
const LOOKUP_LIMIT = PALETTE_LOOKUP_LIMIT;

/** What the palette searches of a policy: id, name, instance type and zone. */
function entryOf(policy: CapacityRow): PolicyEntry {
  return {
    cidrId: policy.cidrId,
    policyName: policy.policyName ?? policy.cidrId,
    policyStatus: policy.policyStatus ?? '',
    instanceType: policy.policyInstance?.instanceType,
    availabilityZone: policy.cspRegion?.availabilityZoneId,
  };
}

/**
 * A light index of the user's capacity policies (id, name, status) for the
 * command palette: the newest pages of capacity.list, fetched on first use,
 * plus whatever the list view has loaded.
 */
class CapacityIndex {
  #entries = new Map<string, PolicyEntry>();
  version = $state(0);
  total = $state<number | null>(null);
  loading = $state(false);
  error = $state<AppError | null>(null);
  #loadedAt = 0;
  #latest = new LatestOnly();
  #lookups = new LatestOnly();
  /** The last text looked up in the whole local copy (beyond the newest pages), once its answer is in. */
  lookedUp = $state<string | null>(null);

  constructor() {
    // Another user's policy names must never be offered; an index still loading for them is dropped.
    sessionScope.register(() => {
      this.#latest.drop();
      this.#lookups.drop();
      this.lookedUp = null;
      this.#entries.clear();
      this.total = null;
      this.#loadedAt = 0;
      this.loading = false;
      this.error = null;
      this.version++;
    });
  }

  get indexed(): number {
    void this.version;
    return this.#entries.size;
  }

  entries(): PolicyEntry[] {
    void this.version;
    // The list's rows are this user's too: the session scope empties both for another user.
    for (const row of capacityList.loadedRows()) {
      this.#entries.set(row.cidrId, entryOf(row));
    }
    return [...this.#entries.values()];
  }

  /**
   * Adds the policies of the whole local copy whose id, name, instance type or
   * zone contains `text`, so a policy older than the newest pages is found by
   * what is typed (typos are forgiven among the indexed ones only). Before the
   * copy is filled the service cannot search, and nothing is added.
   */
  async lookUp(text: string): Promise<void> {
    const needle = text.trim();
    if (needle.length < 2) return;
    const ticket = this.#lookups.begin();
    const result = await api.capacity.list({ text: needle, limit: LOOKUP_LIMIT, sortOrder: 'desc' });
    if (!ticket.current() || !result.ok || !result.value.local) return;
    for (const policy of result.value.rows) this.#entries.set(policy.cidrId, entryOf(policy));
    this.lookedUp = needle;
    this.version++;
  }

  /** Loads the index once per user, and again when it is more than a minute old. */
  async ensure(): Promise<void> {
    if (this.loading || Date.now() - this.#loadedAt < 60_000) return;
    this.loading = true;
    this.error = null;
    const ticket = this.#latest.begin();
    for (let page = 1; page <= INDEX_MAX_PAGES; page++) {
      const result = await api.capacity.list({ offset: (page - 1) * PAGING.maxPageSize, limit: PAGING.maxPageSize, sortOrder: 'desc' });
      if (!ticket.current()) return;
      if (!result.ok) {
        this.error = result.error;
        break;
      }
      this.total = result.value.total;
      for (const policy of result.value.rows) {
        this.#entries.set(policy.cidrId, entryOf(policy));
      }
      this.version++;
      if (page * PAGING.maxPageSize >= result.value.total) break;
    }
    this.#loadedAt = this.error ? 0 : Date.now();
    this.loading = false;
  }
}

export const capacityIndex = new CapacityIndex();
