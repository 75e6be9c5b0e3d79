import type { CapacityConfiguration } from '../../shared/api/capacity.js';

/** A new policy's configuration as the service returns it: the "default" and "none" placeholders the rules would refuse. */
export const NEW_POLICY_CONFIGURATION: CapacityConfiguration = {
  launchDateTime: '2027-01-01T00:00:00+00:00',
  endDateTime: '2027-02-01T00:00:00+00:00',
  autoRenewalEnabled: false,
  frequency: null,
  vpc: 'default',
  securityGroups: 'none',
  amiImage: 'default',
  sshPairKey: 'none',
  ebsVolumeSize: 10,
};
