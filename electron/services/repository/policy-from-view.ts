import type { CapacityPolicy, CapacityView } from '../../../shared/api/capacity.js';

/**
 * The list record of a policy, rebuilt from its detail view, so that a policy
 * re-read after an action shows its new state in every list at once. A list
 * item holds one instance group; a view without one cannot make a row.
 */
export function policyFromView(view: CapacityView): CapacityPolicy | null {
  const [instance] = view.instances;
  if (!instance) return null;
  const { policyDetails: details } = view;
  return {
    cidrId: details.cidrId,
    policyName: details.policyName,
    cspAccountName: details.cspAccountName,
    policyStatus: details.policyStatus,
    policyOperatingState: details.policyOperatingState,
    policyInstance: instance,
    cspRegion: view.regionSettings,
    createdDate: view.dates.createdDate,
    capacityConfiguration: view.configuration,
    pricing: view.pricing,
  };
}
