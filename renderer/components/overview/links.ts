import type { CapacityStatus } from '../../../shared/api/capacity.js';
import type { CustomerFilter } from '../../../shared/ipc/customer-key.js';
import type { WorklistHorizon } from '../../../shared/ipc/worklist.js';
import { capacityList } from '../../stores/capacity-list.svelte.js';
import { navigation } from '../../stores/navigation.svelte.js';
import { renewalWorklist } from '../../stores/renewal-worklist.svelte.js';

/**
 * Opens the capacity list filtered by a status (null: all). The list keeps its
 * filter in its own store (and localStorage), so setting it there first is all
 * the hand-over needs.
 */
export function openCapacityList(status: CapacityStatus | null): void {
  capacityList.setStatus(status);
  navigation.go({ view: 'capacity-list' });
}

/** Opens the capacity list on the active policies running now (of one customer, or all): what the savings tiles count. */
export function openRunningPolicies(customer: CustomerFilter | null): void {
  capacityList.showRunning(customer);
  navigation.go({ view: 'capacity-list' });
}

/** Opens the renewal worklist with the overview's horizon (it looks 30 days ahead too); entering the route reads it. */
export function openRenewals(): void {
  renewalWorklist.horizonDays = 30;
  navigation.go({ view: 'renewals' });
}

/** Opens the renewal worklist on one customer's policies, at the horizon they were looked at (the view reads on opening). */
export function openRenewalsOf(customer: string, horizonDays: WorklistHorizon): void {
  renewalWorklist.customer = customer;
  renewalWorklist.horizonDays = horizonDays;
  navigation.go({ view: 'renewals' });
}

export function openCapacityPolicy(cidrId: string): void {
  navigation.go({ view: 'capacity-detail', cidrId });
}
