import type { CapacityPolicy, CapacityStatus, DrEvent, PolicyInstance, Pricing } from '../../shared/api/capacity.js';
import {
  CAPACITY_STATUSES,
  CYBER_STATUSES,
  DEFAULT_CONFIGURATION,
  RENEWAL_FREQUENCIES,
  TERMINATION_EVENT_TYPE,
} from '../../shared/api/contract-choices.js';
import type { CyberStatus, CyberView } from '../../shared/api/cyber.js';
import { toOffsetIso } from '../../shared/format/dates.js';
import { SANDBOX_USERS, capacityAccounts, linkedAccountsWith, type SandboxCustomer, type SandboxUser } from '../accounts.js';
import type { LinkedAccount } from '../../shared/api/accounts.js';
import { roundCents } from '../state/fees.js';
import { operatingStateFor } from '../state/lifecycle.js';
import type { CapacityEntry, CyberEntry, Dataset } from '../state/model.js';
import {
  INSTANCE_CATALOG,
  PLATFORMS,
  REGIONS,
  REGION_TYPE,
  RETIRED_INSTANCE,
  TENANCY,
  providerHourly,
  type InstanceSpec,
  type Platform,
  type Region,
} from './catalog.js';
import { Rng } from './prng.js';

export const DAY_MS = 86_400_000;
export const DEFAULT_SCALE = 300;
export const CAPACITY_ID_BASE = 1_000_000;
export const CYBER_ID_BASE = 5_000_000;
/**
 * Room for the first user to hold 1,000,000 capacity policies (about 60 % of the seeded ones, the 1M curve of
 * issue 25) while capacity ids (sc_1000001 to sc_3000000) stay clear of cyber ids (sc_5000001 on).
 */
export const MAX_SCALE = 2_000_000;
if (CAPACITY_ID_BASE + MAX_SCALE >= CYBER_ID_BASE) throw new Error('seeded capacity ids would run into the cyber ids');
/** Each capacity policy has one instance, numbered from here in the policies' order (700,001 to 2,700,000 at most). */
export const CAPACITY_INSTANCE_ID_BASE = 700_000;
/**
 * The DR policies' instances are numbered from here, past the last capacity instance of the largest seed: they
 * began at 900,001, so a seed of more than 200,000 policies gave capacity and DR instances the same ids.
 */
export const CYBER_INSTANCE_ID_BASE = CAPACITY_INSTANCE_ID_BASE + MAX_SCALE;
const DURATIONS_DAYS = [7, 14, 30, 60, 90, 180, 365] as const;
const PURPOSES = [
  'Web tier',
  'Batch analytics',
  'CI runners',
  'ML training',
  'Render farm',
  'Data warehouse',
  'Holiday peak',
  'Reporting',
  'API gateway',
  'Search cluster',
] as const;
const DR_PURPOSES = ['Payments', 'Core ledger', 'Storefront', 'Analytics', 'ERP', 'Mail', 'File shares', 'Identity'] as const;
const DR_EVENT_TYPES = ['REPLICATION_STARTED', 'RECOVERY_POINT_VERIFIED', 'FAILOVER_TEST', 'FAILBACK_TEST'] as const;
/** Recovery copies live in a region of this type (the spec observes only PRIMARY). */
export const RECOVERY_REGION_TYPE = 'RECOVERY';

export interface DatasetOptions {
  readonly seed: number;
  readonly scale: number;
  /** Seeded dates are placed around this instant (the start of a UTC day). */
  readonly anchorMs: number;
  /** Linked accounts added to the first user (bookAccounts), their policies spread over all of theirs; none by default. */
  readonly accounts?: number | undefined;
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The whole seeded state. The same options give the same data, byte for byte.
 * The first twelve capacity policies give both users every status, the
 * thirteenth uses a retired instance type, and the first five cyber policies of
 * each customer cover every cyber status plus an already-terminated one.
 */
export function generateDataset(options: DatasetOptions): Dataset {
  const scale = Math.max(0, Math.min(MAX_SCALE, Math.floor(options.scale)));
  const rng = new Rng(options.seed);
  const linkedAccounts = linkedAccountsWith(options.accounts ?? 0);
  const capacities = generateCapacities(rng, scale, options.anchorMs, linkedAccounts);
  const { cyber, nextEventId } = generateCyber(rng, scale, options.anchorMs);
  return { capacities, cyber, nextEventId, linkedAccounts };
}

interface CapacityDraft {
  readonly owner: SandboxUser;
  readonly status: CapacityStatus;
  readonly createdMs: number;
  readonly launchMs: number;
  readonly endMs: number;
  readonly build: (cidrId: string, instanceId: number) => CapacityPolicy;
}

type LinkedAccounts = ReadonlyMap<string, readonly LinkedAccount[]>;

function generateCapacities(rng: Rng, scale: number, anchorMs: number, linked: LinkedAccounts): CapacityEntry[] {
  // Each user's capacity accounts once, not filtered again per policy (3,000 accounts made that 500 million steps).
  const held: LinkedAccounts = new Map([...linked].map(([username, accounts]) => [username, capacityAccounts(accounts)]));
  const alex = SANDBOX_USERS[0] as SandboxUser;
  const jordan = SANDBOX_USERS[1] as SandboxUser;
  const drafts: CapacityDraft[] = [];
  for (let i = 0; i < scale; i++) {
    const coverage = i < CAPACITY_STATUSES.length * 2;
    const owner = coverage ? (i % 2 === 0 ? alex : jordan) : i === 12 ? alex : rng.chance(0.6) ? alex : jordan;
    const status: CapacityStatus = coverage
      ? (CAPACITY_STATUSES[Math.floor(i / 2)] as CapacityStatus)
      : i === 12
        ? 'ACTIVE'
        : rng.weighted<CapacityStatus>([
            ['ACTIVE', 30],
            ['READY_FOR_PURCHASE', 20],
            ['COMPLETED', 20],
            ['EXPIRED', 10],
            ['CANCELED', 12],
            ['FAILED', 8],
          ]);
    const spec = i === 12 ? RETIRED_INSTANCE : rng.pick(INSTANCE_CATALOG);
    drafts.push(capacityDraft(rng, i, owner, status, spec, anchorMs, held));
  }
  // One sort at seeding time; from here on every list is kept in this order.
  const order = drafts.map((draft, index) => ({ draft, index }));
  order.sort((a, b) => a.draft.createdMs - b.draft.createdMs || a.index - b.index);
  return order.map(({ draft }, seq) => {
    const policy = draft.build(`sc_${CAPACITY_ID_BASE + seq + 1}`, CAPACITY_INSTANCE_ID_BASE + seq + 1);
    return {
      kind: 'capacity',
      seq,
      owner: draft.owner.username,
      launchMs: draft.launchMs,
      endMs: draft.endMs,
      policy,
      json: undefined,
      viewJson: undefined,
    } satisfies CapacityEntry;
  });
}

function capacityDraft(
  rng: Rng,
  index: number,
  owner: SandboxUser,
  status: CapacityStatus,
  spec: InstanceSpec,
  anchorMs: number,
  /** Each user's accounts that hold capacity policies, by username. */
  held: LinkedAccounts,
): CapacityDraft {
  const platform: Platform = spec.platforms.includes(PLATFORMS.windows) && rng.chance(0.3) ? PLATFORMS.windows : PLATFORMS.linux;
  const region = rng.pick(REGIONS);
  const zone = rng.pick(region.zones);
  const account = rng.pick(held.get(owner.username) ?? capacityAccounts(owner.linkedAccounts));
  const qty = spec.gpu >= 4 ? rng.int(1, 4) : rng.int(1, 16);
  const { launchMs, endMs } = capacityWindow(rng, status, anchorMs);
  const createdMs = createdBefore(rng, launchMs, anchorMs);
  const purpose = rng.pick(PURPOSES);
  const policyName = `${purpose} ${region.regionCode} ${index + 1}`;
  const pricing = pricingFor(rng, [{ spec, platform, qty }], launchMs, endMs);
  const purchased = status !== 'READY_FOR_PURCHASE' && status !== 'EXPIRED';
  const configured = purchased && rng.chance(0.6);
  const renews = purchased && rng.chance(0.3);
  const frequency = renews ? rng.pick(RENEWAL_FREQUENCIES) : null;
  const custom = configured
    ? {
        vpc: `vpc-${rng.hex(17)}`,
        securityGroups: `sg-${rng.hex(17)}`,
        amiImage: `ami-${rng.hex(17)}`,
        sshPairKey: `${owner.username.split('.')[0] ?? 'ops'}-${purpose.toLowerCase().replace(/ /g, '-')}`,
        ebsVolumeSize: rng.pick([20, 50, 100, 200, 500]),
      }
    : DEFAULT_CONFIGURATION;
  const build = (cidrId: string, instanceId: number): CapacityPolicy => ({
    cidrId,
    policyName,
    cspAccountName: account.accountName,
    policyStatus: status,
    policyOperatingState: operatingStateFor(status, launchMs, anchorMs),
    policyInstance: instanceOf(instanceId, spec, platform, qty),
    cspRegion: { regionCode: region.regionCode, regionType: REGION_TYPE, availabilityZoneId: zone },
    createdDate: new Date(createdMs).toISOString(),
    capacityConfiguration: {
      launchDateTime: toOffsetIso(new Date(launchMs), 0),
      endDateTime: toOffsetIso(new Date(endMs), 0),
      autoRenewalEnabled: renews,
      frequency,
      ...custom,
    },
    pricing,
  });
  return { owner, status, createdMs, launchMs, endMs, build };
}

/** A window that agrees with the status as of the anchor day (and the whole of that day). */
function capacityWindow(rng: Rng, status: CapacityStatus, anchorMs: number): { launchMs: number; endMs: number } {
  const duration = rng.pick(DURATIONS_DAYS) * DAY_MS;
  switch (status) {
    case 'READY_FOR_PURCHASE': {
      const launchMs = anchorMs + rng.int(3, 150) * DAY_MS;
      return { launchMs, endMs: launchMs + duration };
    }
    case 'ACTIVE': {
      if (rng.chance(0.5)) {
        const launchMs = anchorMs + rng.int(3, 120) * DAY_MS;
        return { launchMs, endMs: launchMs + duration };
      }
      const launchMs = anchorMs - rng.int(0, 150) * DAY_MS;
      return { launchMs, endMs: Math.max(launchMs + duration, anchorMs + rng.int(3, 90) * DAY_MS) };
    }
    case 'EXPIRED': {
      const launchMs = anchorMs - rng.int(1, 300) * DAY_MS;
      return { launchMs, endMs: launchMs + duration };
    }
    case 'COMPLETED': {
      const endMs = anchorMs - rng.int(1, 300) * DAY_MS;
      return { launchMs: endMs - duration, endMs };
    }
    default: {
      const launchMs = anchorMs + rng.int(-300, 120) * DAY_MS;
      return { launchMs, endMs: launchMs + duration };
    }
  }
}

/** Some time before launch, and never after the anchor day began. */
function createdBefore(rng: Rng, startMs: number, anchorMs: number): number {
  const lead = rng.int(1, 45) * DAY_MS + rng.int(0, DAY_MS - 1);
  return Math.min(startMs - lead, anchorMs - rng.int(60_000, 20 * DAY_MS));
}

function instanceOf(id: number, spec: InstanceSpec, platform: string, qty: number): PolicyInstance {
  return {
    id,
    instanceType: spec.instanceType,
    platformCode: platform,
    tenancyCode: TENANCY,
    vcpu: spec.vcpu,
    memory: spec.memory,
    gpu: spec.gpu,
    gpuMemory: spec.gpuMemory,
    qty,
  };
}

function pricingFor(
  rng: Rng,
  lines: readonly { spec: InstanceSpec; platform: string; qty: number }[],
  startMs: number,
  endMs: number,
): Pricing {
  const hours = (endMs - startMs) / 3_600_000;
  let provider = 0;
  let ours = 0;
  for (const { spec, platform, qty } of lines) {
    const line = providerHourly(spec, platform) * qty * hours;
    provider += line;
    ours += line * (1 - spec.discount);
  }
  const cspProviderPrice = roundCents(provider);
  const ourPrice = roundCents(ours);
  const savings = roundCents(cspProviderPrice - ourPrice);
  return {
    ourPrice,
    cspProviderPrice,
    savings,
    savingsPercentage: cspProviderPrice > 0 ? Math.round((savings / cspProviderPrice) * 10_000) / 10_000 : 0,
    creditCardProcessingFee: rng.chance(0.7) ? roundCents(ourPrice * 0.029) : null,
    bankAccountProcessingFee: rng.chance(0.5) ? roundCents(Math.min(ourPrice * 0.008, 25)) : null,
  };
}

interface CyberDraft {
  readonly owner: SandboxUser;
  readonly customer: SandboxCustomer;
  readonly status: CyberStatus;
  readonly createdMs: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly policyName: string;
  /** Event times and types; ids are given in creation order after sorting. */
  readonly events: readonly { atMs: number; type: string; description: string }[];
  readonly terminated: boolean;
  readonly build: (cidrId: string, firstInstanceId: number, events: DrEvent[]) => CyberView;
}

function generateCyber(rng: Rng, scale: number, anchorMs: number): { cyber: CyberEntry[]; nextEventId: number } {
  const perCustomer = Math.max(8, Math.min(4000, Math.round(scale / 25)));
  const drafts: CyberDraft[] = [];
  for (const owner of SANDBOX_USERS) {
    for (const customer of owner.customers) {
      for (let k = 0; k < perCustomer; k++) drafts.push(cyberDraft(rng, owner, customer, k, anchorMs));
    }
  }
  const order = drafts.map((draft, index) => ({ draft, index }));
  order.sort((a, b) => a.draft.createdMs - b.draft.createdMs || a.index - b.index);
  let nextEventId = 1;
  let nextInstanceId = CYBER_INSTANCE_ID_BASE + 1;
  const cyber = order.map(({ draft }, seq): CyberEntry => {
    const events = draft.events.map(
      (event): DrEvent => ({
        id: nextEventId++,
        type: event.type,
        createdDate: new Date(event.atMs).toISOString(),
        description: event.description,
      }),
    );
    const view = draft.build(`sc_${CYBER_ID_BASE + seq + 1}`, nextInstanceId, events);
    nextInstanceId += view.instances.length;
    const termination = events.find((event) => event.type === TERMINATION_EVENT_TYPE);
    return {
      kind: 'cyber',
      seq,
      owner: draft.owner.username,
      customerId: draft.customer.cidExt,
      startMs: draft.startMs,
      endMs: draft.endMs,
      nameLower: draft.policyName.toLowerCase(),
      view,
      terminationEventId: termination ? termination.id : null,
    };
  });
  return { cyber, nextEventId };
}

function cyberDraft(rng: Rng, owner: SandboxUser, customer: SandboxCustomer, k: number, anchorMs: number): CyberDraft {
  const status: CyberStatus =
    k < CYBER_STATUSES.length
      ? (CYBER_STATUSES[k] as CyberStatus)
      : k === CYBER_STATUSES.length
        ? 'COMPLETED'
        : rng.weighted<CyberStatus>([
            ['ACTIVE', 45],
            ['READY_FOR_PURCHASE', 20],
            ['COMPLETED', 20],
            ['CANCELED', 15],
          ]);
  const terminated = k === CYBER_STATUSES.length || ((status === 'COMPLETED' || status === 'CANCELED') && rng.chance(0.15));
  const { startMs, endMs } = cyberWindow(rng, status, anchorMs);
  const createdMs = createdBefore(rng, startMs, anchorMs);
  const primaryRegion = rng.pick(REGIONS);
  const recoveryRegion = rng.pick(REGIONS.filter((region) => region !== primaryRegion));
  const primaryZone = rng.pick(primaryRegion.zones);
  const recoveryZone = rng.pick(recoveryRegion.zones);
  const account = rng.pick(capacityAccounts(owner.linkedAccounts));
  const lines = Array.from({ length: rng.int(1, 3) }, () => {
    const spec = rng.pick(INSTANCE_CATALOG);
    const platform: Platform = spec.platforms.includes(PLATFORMS.windows) && rng.chance(0.3) ? PLATFORMS.windows : PLATFORMS.linux;
    return { spec, platform, qty: rng.int(1, 6) };
  });
  const pricing = pricingFor(rng, lines, startMs, endMs);
  const policyName = `DR ${rng.pick(DR_PURPOSES)} ${shortName(customer)} ${k + 1}`;
  const events = drEvents(rng, status, startMs, endMs, anchorMs, terminated);
  const build = (cidrId: string, firstInstanceId: number, drEventList: DrEvent[]): CyberView => ({
    policyDetails: {
      cidrId,
      policyName,
      policyStatus: status,
      customerId: customer.cidExt,
      cspAccountName: account.accountName,
    },
    regionSettings: {
      primary: regionSetting(primaryRegion, primaryZone, REGION_TYPE),
      recovery: regionSetting(recoveryRegion, recoveryZone, RECOVERY_REGION_TYPE),
    },
    instances: lines.map((line, i) => instanceOf(firstInstanceId + i, line.spec, line.platform, line.qty)),
    dates: {
      createdDate: new Date(createdMs).toISOString(),
      startDateTime: toOffsetIso(new Date(startMs), 0),
      endDateTime: toOffsetIso(new Date(endMs), 0),
    },
    disasterRecoveryEvents: drEventList,
    pricing,
  });
  return { owner, customer, status, createdMs, startMs, endMs, policyName, events, terminated, build };
}

function shortName(customer: SandboxCustomer): string {
  return customer.name.split(' ')[0] ?? customer.cidExt;
}

function regionSetting(region: Region, zone: string, regionType: string) {
  return { regionCode: region.regionCode, regionType, availabilityZoneId: zone };
}

function cyberWindow(rng: Rng, status: CyberStatus, anchorMs: number): { startMs: number; endMs: number } {
  const duration = rng.pick([90, 180, 365] as const) * DAY_MS;
  switch (status) {
    case 'READY_FOR_PURCHASE': {
      const startMs = anchorMs + rng.int(3, 90) * DAY_MS;
      return { startMs, endMs: startMs + duration };
    }
    case 'ACTIVE': {
      const startMs = anchorMs - rng.int(0, 300) * DAY_MS;
      return { startMs, endMs: Math.max(startMs + duration, anchorMs + rng.int(30, 365) * DAY_MS) };
    }
    case 'COMPLETED': {
      const endMs = anchorMs - rng.int(1, 200) * DAY_MS;
      return { startMs: endMs - duration, endMs };
    }
    default: {
      const startMs = anchorMs - rng.int(0, 300) * DAY_MS;
      return { startMs, endMs: startMs + duration };
    }
  }
}

function drEvents(
  rng: Rng,
  status: CyberStatus,
  startMs: number,
  endMs: number,
  anchorMs: number,
  terminated: boolean,
): { atMs: number; type: string; description: string }[] {
  if (status === 'READY_FOR_PURCHASE') return [];
  const lastMs = Math.min(endMs, anchorMs - 3_600_000);
  if (lastMs <= startMs) return [];
  const events = [{ atMs: startMs + rng.int(60_000, 3_600_000), type: DR_EVENT_TYPES[0] as string, description: 'Replication to the recovery region started' }];
  const more = rng.int(0, 3);
  for (let i = 0; i < more; i++) {
    const type = rng.pick(DR_EVENT_TYPES.slice(1));
    events.push({ atMs: startMs + Math.floor(rng.next() * (lastMs - startMs)), type, description: describeEvent(type) });
  }
  if (terminated) events.push({ atMs: lastMs, type: TERMINATION_EVENT_TYPE, description: 'Disaster-recovery termination event' });
  return events.sort((a, b) => a.atMs - b.atMs);
}

function describeEvent(type: string): string {
  switch (type) {
    case 'RECOVERY_POINT_VERIFIED':
      return 'Recovery point verified in the recovery region';
    case 'FAILOVER_TEST':
      return 'Scheduled failover test completed';
    default:
      return 'Scheduled failback test completed';
  }
}
