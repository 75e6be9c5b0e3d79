import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { RecordSortColumn } from '../../shared/ipc/offline.js';
import { SortedRowIndex, type Key, type RowView } from '../../electron/services/search/sorted-row-index.js';
import { accountKey } from '../../shared/customers/matching.js';

/**
 * The search index over whole policies, read straight from their fields: the
 * reference the replica's slim rows are checked against.
 */
const SORT_KEYS: Readonly<Record<RecordSortColumn, (p: CapacityPolicy) => Key>> = {
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
  savings: (p) => p.pricing.savings,
  savingsPercentage: (p) => p.pricing.savingsPercentage,
};

export const POLICY_VIEW: RowView<CapacityPolicy> = {
  sortKeys: SORT_KEYS,
  id: (p) => p.cidrId,
  searchText: (p) => [p.cidrId, p.policyName, p.policyInstance.instanceType, p.cspRegion.availabilityZoneId, p.cspAccountName].join('\u0001'),
  status: (p) => p.policyStatus,
  offering: (p) => ({ instanceType: p.policyInstance.instanceType, platform: p.policyInstance.platformCode, availabilityZone: p.cspRegion.availabilityZoneId }),
  account: (p) => accountKey(p.cspAccountName),
  launchMs: (p) => {
    const at = Date.parse(p.capacityConfiguration.launchDateTime);
    return Number.isNaN(at) ? null : at;
  },
  quantity: (p) => p.policyInstance.qty,
};

export class CapacityIndex extends SortedRowIndex<CapacityPolicy> {
  constructor(rows: readonly CapacityPolicy[]) {
    super([...rows], POLICY_VIEW);
  }
}
