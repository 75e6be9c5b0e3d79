import type { CapacityStatus } from '../../../shared/api/capacity.js';
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

/** Opens the renewal worklist with the overview's horizon (it looks 30 days ahead too). */
export function openRenewals(): void {
  void renewalWorklist.setHorizon(30);
  navigation.go({ view: 'renewals' });
}

export function openCapacityPolicy(cidrId: string): void {
  navigation.go({ view: 'capacity-detail', cidrId });
}
