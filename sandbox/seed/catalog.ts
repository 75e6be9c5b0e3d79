import { stableHash } from './prng.js';

/** The two kinds of platform name the spec describes. */
export const PLATFORMS = {
  linux: 'Linux/UNIX',
  windows: 'Windows',
} as const;
export type Platform = (typeof PLATFORMS)[keyof typeof PLATFORMS];

export const TENANCY = 'DEDICATED';
export const REGION_TYPE = 'PRIMARY';

export interface InstanceSpec {
  readonly instanceType: string;
  readonly vcpu: number;
  /** GiB. */
  readonly memory: number;
  readonly gpu: number;
  /** GiB, all GPUs together. */
  readonly gpuMemory: number;
  /** USD per instance-hour at the provider, Linux/UNIX. */
  readonly linuxHourly: number;
  readonly platforms: readonly Platform[];
  /** Fraction the sandbox's price is below the provider's. */
  readonly discount: number;
}

const BOTH: readonly Platform[] = [PLATFORMS.linux, PLATFORMS.windows];
const LINUX_ONLY: readonly Platform[] = [PLATFORMS.linux];

/** Supported instance types, with figures close to the public on-demand ones. */
export const INSTANCE_CATALOG: readonly InstanceSpec[] = [
  { instanceType: 't3.large', vcpu: 2, memory: 8, gpu: 0, gpuMemory: 0, linuxHourly: 0.0832, platforms: BOTH, discount: 0.18 },
  { instanceType: 'm5.large', vcpu: 2, memory: 8, gpu: 0, gpuMemory: 0, linuxHourly: 0.096, platforms: BOTH, discount: 0.22 },
  { instanceType: 'm5.xlarge', vcpu: 4, memory: 16, gpu: 0, gpuMemory: 0, linuxHourly: 0.192, platforms: BOTH, discount: 0.22 },
  { instanceType: 'm5.2xlarge', vcpu: 8, memory: 32, gpu: 0, gpuMemory: 0, linuxHourly: 0.384, platforms: BOTH, discount: 0.24 },
  { instanceType: 'c5.xlarge', vcpu: 4, memory: 8, gpu: 0, gpuMemory: 0, linuxHourly: 0.17, platforms: BOTH, discount: 0.2 },
  { instanceType: 'c5.4xlarge', vcpu: 16, memory: 32, gpu: 0, gpuMemory: 0, linuxHourly: 0.68, platforms: BOTH, discount: 0.26 },
  { instanceType: 'r5.2xlarge', vcpu: 8, memory: 64, gpu: 0, gpuMemory: 0, linuxHourly: 0.504, platforms: BOTH, discount: 0.25 },
  { instanceType: 'r5.8xlarge', vcpu: 32, memory: 256, gpu: 0, gpuMemory: 0, linuxHourly: 2.016, platforms: BOTH, discount: 0.28 },
  { instanceType: 'g4dn.xlarge', vcpu: 4, memory: 16, gpu: 1, gpuMemory: 16, linuxHourly: 0.526, platforms: BOTH, discount: 0.2 },
  { instanceType: 'g4dn.12xlarge', vcpu: 48, memory: 192, gpu: 4, gpuMemory: 64, linuxHourly: 3.912, platforms: BOTH, discount: 0.27 },
  { instanceType: 'g5.2xlarge', vcpu: 8, memory: 32, gpu: 1, gpuMemory: 24, linuxHourly: 1.212, platforms: BOTH, discount: 0.23 },
  { instanceType: 'p3.2xlarge', vcpu: 8, memory: 61, gpu: 1, gpuMemory: 16, linuxHourly: 3.06, platforms: LINUX_ONLY, discount: 0.3 },
  { instanceType: 'p4d.24xlarge', vcpu: 96, memory: 1152, gpu: 8, gpuMemory: 320, linuxHourly: 32.7726, platforms: LINUX_ONLY, discount: 0.35 },
];

/**
 * An instance type some seeded policies still use but the catalog no longer
 * supports, so that configure's "not supported" 404 can be reached.
 */
export const RETIRED_INSTANCE: InstanceSpec = {
  instanceType: 'm4.large',
  vcpu: 2,
  memory: 8,
  gpu: 0,
  gpuMemory: 0,
  linuxHourly: 0.1,
  platforms: LINUX_ONLY,
  discount: 0.2,
};

/** What Windows adds per vCPU-hour (licence). */
const WINDOWS_PER_VCPU_HOUR = 0.046;

export interface Region {
  readonly regionCode: string;
  readonly name: string;
  readonly zones: readonly string[];
}

export const REGIONS: readonly Region[] = [
  { regionCode: 'us-east-1', name: 'US East (N. Virginia)', zones: ['use1-az1', 'use1-az2', 'use1-az4', 'use1-az6'] },
  { regionCode: 'us-west-2', name: 'US West (Oregon)', zones: ['usw2-az1', 'usw2-az2', 'usw2-az3'] },
  { regionCode: 'eu-west-1', name: 'Europe (Ireland)', zones: ['euw1-az1', 'euw1-az2', 'euw1-az3'] },
  { regionCode: 'eu-central-1', name: 'Europe (Frankfurt)', zones: ['euc1-az1', 'euc1-az2', 'euc1-az3'] },
  { regionCode: 'ap-southeast-2', name: 'Asia Pacific (Sydney)', zones: ['apse2-az1', 'apse2-az2', 'apse2-az3'] },
];

const byType = new Map(INSTANCE_CATALOG.map((spec) => [spec.instanceType, spec]));

/** The catalog entry for a type and platform; undefined when the pair is not supported. */
export function findSupported(instanceType: string, platform: string): InstanceSpec | undefined {
  const spec = byType.get(instanceType);
  return spec && (spec.platforms as readonly string[]).includes(platform) ? spec : undefined;
}

/** Provider price per instance-hour. */
export function providerHourly(spec: InstanceSpec, platform: string): number {
  return spec.linuxHourly + (platform === PLATFORMS.windows ? WINDOWS_PER_VCPU_HOUR * spec.vcpu : 0);
}

export function regionOfZone(zone: string): Region | undefined {
  return REGIONS.find((region) => region.zones.includes(zone));
}

export type ZoneSupply = 'all' | 'partial' | 'none';

/**
 * How much of a type/platform a zone has, fixed by the catalog alone so that a
 * search answers the same on every run and every seed.
 */
export function zoneSupply(instanceType: string, platform: string, zone: string): ZoneSupply {
  if (!regionOfZone(zone)) return 'none';
  const bucket = stableHash(`${instanceType}|${platform}|${zone}`) % 10;
  if (bucket < 6) return 'all';
  if (bucket < 9) return 'partial';
  return 'none';
}

/** Whether a partial zone has the type free on one UTC day (epoch day number). */
export function dayAvailable(instanceType: string, platform: string, zone: string, epochDay: number): boolean {
  const supply = zoneSupply(instanceType, platform, zone);
  if (supply !== 'partial') return supply === 'all';
  // Runs of several days look more like real capacity than a coin per day.
  return stableHash(`${instanceType}|${platform}|${zone}|${Math.floor(epochDay / 4)}`) % 10 < 6;
}
