import type { CapacityPolicy } from '../../shared/api/capacity.js';

const TYPES = ['m5.large', 'm5.2xlarge', 'c6i.4xlarge', 'r6g.xlarge', 'p3.2xlarge', 'g5.12xlarge'];
const STATUSES = ['ACTIVE', 'READY_FOR_PURCHASE', 'EXPIRED', 'CANCELED', 'FAILED', 'COMPLETED'];
const ZONES = ['use1-az1', 'use1-az2', 'usw2-az1', 'euw1-az3', 'apse2-az1'];

/** Deterministic capacity records for cache tests and benchmarks (no sandbox needed). */
export function syntheticPolicies(count: number, tag = 'p'): CapacityPolicy[] {
  const base = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    cidrId: `sc_${100000 + i}`,
    policyName: `${tag} ${TYPES[i % TYPES.length]} reservation ${i}`,
    cspAccountName: i % 3 ? 'morgan-prod' : 'morgan-analytics',
    policyStatus: STATUSES[i % STATUSES.length] as string,
    policyOperatingState: 'QUEUED_FOR_START',
    policyInstance: {
      id: i,
      instanceType: TYPES[i % TYPES.length] as string,
      platformCode: i % 4 ? 'Linux/UNIX' : 'Windows Server',
      tenancyCode: 'DEDICATED',
      vcpu: 2 + (i % 16),
      memory: 8 + (i % 32),
      gpu: i % 5 === 0 ? 1 : 0,
      gpuMemory: i % 5 === 0 ? 16 : 0,
      qty: 1 + (i % 20),
    },
    cspRegion: { regionCode: 'us-east-1', regionType: 'PRIMARY', availabilityZoneId: ZONES[i % ZONES.length] as string },
    createdDate: new Date(base + i * 60_000).toISOString(),
    capacityConfiguration: {
      launchDateTime: new Date(base + (i % 400) * 86_400_000).toISOString().replace('Z', '+00:00'),
      endDateTime: new Date(base + ((i % 400) + 30) * 86_400_000).toISOString().replace('Z', '+00:00'),
      autoRenewalEnabled: i % 2 === 0,
      frequency: i % 2 === 0 ? 'ONE_MONTH' : null,
      vpc: 'default',
      securityGroups: 'none',
      amiImage: 'default',
      sshPairKey: 'none',
      ebsVolumeSize: 10,
    },
    pricing: {
      ourPrice: 100 + (i % 900),
      cspProviderPrice: 150 + (i % 900),
      savings: 50,
      savingsPercentage: 50 / (150 + (i % 900)),
      creditCardProcessingFee: null,
      bankAccountProcessingFee: null,
    },
  }));
}
