import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { LocalCapacityQuery, LocalSortColumn } from '../../../shared/ipc/offline.js';

type Key = string | number;

const SORT_KEYS: Readonly<Record<LocalSortColumn, (p: CapacityPolicy) => Key>> = {
  createdDate: (p) => p.createdDate,
  cidrId: (p) => p.cidrId,
  policyName: (p) => p.policyName.toLowerCase(),
  policyStatus: (p) => p.policyStatus,
  instanceType: (p) => p.policyInstance.instanceType,
  qty: (p) => p.policyInstance.qty,
  platform: (p) => p.policyInstance.platformCode,
  availabilityZone: (p) => p.cspRegion.availabilityZoneId,
  launch: (p) => Date.parse(p.capacityConfiguration.launchDateTime),
  end: (p) => Date.parse(p.capacityConfiguration.endDateTime),
  autoRenewal: (p) => (p.capacityConfiguration.autoRenewalEnabled ? 1 : 0),
  ourPrice: (p) => p.pricing.ourPrice,
  savingsPercentage: (p) => p.pricing.savingsPercentage,
};

/**
 * Answers filter, search and sort over the cached capacity list in the main
 * process and hands back one window of rows, so the renderer never receives
 * the whole list. Each sort order is computed once and kept; a query is then a
 * single pass over precomputed lower-case search text.
 */
export class CapacityIndex {
  readonly #rows: readonly CapacityPolicy[];
  readonly #haystacks: readonly string[];
  readonly #orders = new Map<LocalSortColumn, Uint32Array>();
  readonly #descending = new Map<string, Uint32Array>();
  /**
   * The rows the last query matched, in display order. Typing narrows a search
   * ("m5" after "m"), so the next keystroke only needs to look at these.
   */
  #last: { readonly key: string; readonly needle: string; readonly matches: Uint32Array } | null = null;

  constructor(rows: readonly CapacityPolicy[]) {
    this.#rows = rows;
    this.#haystacks = rows.map((p) =>
      [p.cidrId, p.policyName, p.policyInstance.instanceType, p.cspRegion.availabilityZoneId, p.cspAccountName]
        .join('\u0001')
        .toLowerCase(),
    );
  }

  get size(): number {
    return this.#rows.length;
  }

  query(query: Required<Omit<LocalCapacityQuery, 'status'>> & Pick<LocalCapacityQuery, 'status'>): {
    rows: CapacityPolicy[];
    total: number;
  } {
    const needle = query.text.trim().toLowerCase();
    const key = `${query.status ?? ''}|${query.sortBy}|${query.sortOrder}`;
    const last = this.#last;
    const candidates =
      last && last.key === key && needle.startsWith(last.needle) ? last.matches : this.#displayOrder(query.sortBy, query.sortOrder);
    const matches = new Uint32Array(candidates.length);
    let total = 0;
    for (let i = 0; i < candidates.length; i += 1) {
      const index = candidates[i] as number;
      if (query.status && (this.#rows[index] as CapacityPolicy).policyStatus !== query.status) continue;
      if (needle && !(this.#haystacks[index] as string).includes(needle)) continue;
      matches[total] = index;
      total += 1;
    }
    this.#last = { key, needle, matches: matches.subarray(0, total) };
    const end = Math.min(total, query.offset + query.limit);
    const rows: CapacityPolicy[] = [];
    for (let i = query.offset; i < end; i += 1) rows.push(this.#rows[matches[i] as number] as CapacityPolicy);
    return { rows, total };
  }

  /** Row indices in display order for a column and direction (the reverse is kept too). */
  #displayOrder(column: LocalSortColumn, direction: 'asc' | 'desc'): Uint32Array {
    const ascending = this.#order(column);
    if (direction === 'asc') return ascending;
    const cacheKey = `${column}:desc`;
    let descending = this.#descending.get(cacheKey);
    if (!descending) {
      descending = ascending.slice().reverse();
      this.#descending.set(cacheKey, descending);
    }
    return descending;
  }

  #order(column: LocalSortColumn): Uint32Array {
    let order = this.#orders.get(column);
    if (!order) {
      const keyOf = SORT_KEYS[column];
      const keys = this.#rows.map(keyOf);
      order = Uint32Array.from(this.#rows.keys());
      // Ties keep list order (by index) so paging is stable.
      order.sort((a, b) => {
        const ka = keys[a] as Key;
        const kb = keys[b] as Key;
        return ka < kb ? -1 : ka > kb ? 1 : a - b;
      });
      this.#orders.set(column, order);
    }
    return order;
  }
}
