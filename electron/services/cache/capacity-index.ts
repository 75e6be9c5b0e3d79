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
    const order = this.#order(query.sortBy);
    const needle = query.text.trim().toLowerCase();
    const descending = query.sortOrder === 'desc';
    const end = query.offset + query.limit;
    const rows: CapacityPolicy[] = [];
    let total = 0;
    for (let i = 0; i < order.length; i += 1) {
      const index = order[descending ? order.length - 1 - i : i] as number;
      const row = this.#rows[index] as CapacityPolicy;
      if (query.status && row.policyStatus !== query.status) continue;
      if (needle && !(this.#haystacks[index] as string).includes(needle)) continue;
      if (total >= query.offset && total < end) rows.push(row);
      total += 1;
    }
    return { rows, total };
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
