import { CAPACITY_STATUSES } from '../../../shared/api/contract-choices.js';
import {
  OVERVIEW_WINDOW_DAYS,
  SAVINGS_MONTH_DAYS,
  type FamilySavings,
  type OverviewSummary,
  type PolicyMilestone,
  type StatusBreakdown,
  type StatusCount,
} from '../../../shared/ipc/models.js';

const DAY_MS = 86_400_000;

/** Statuses whose launch and end still matter: running or about to be, or waiting to be bought. */
export const UPCOMING_STATUSES: readonly string[] = ['ACTIVE', 'READY_FOR_PURCHASE'];

export interface SummaryOptions {
  readonly windowDays?: number;
  /** How many milestones the overview lists; the counts cover every policy. */
  readonly listLimit?: number;
  /** Families shown apart in the savings chart; the rest are summed as "other". */
  readonly familyLimit?: number;
}

export const OTHER_FAMILY = 'other';

/** What the overview reads of a policy: a whole record will do, and so will a replica's slim row. */
export interface OverviewPolicy {
  readonly cidrId: string;
  readonly policyName: string;
  readonly policyStatus: string;
  readonly policyInstance: { readonly instanceType: string };
  readonly capacityConfiguration: { readonly launchDateTime: string; readonly endDateTime: string; readonly autoRenewalEnabled: boolean };
  readonly pricing: { readonly savings: number };
}

/** The instance family of a type name: `m5.2xlarge` is m5; a name without a dot is its own family. */
export function instanceFamily(instanceType: string): string {
  const dot = instanceType.indexOf('.');
  return (dot > 0 ? instanceType.slice(0, dot) : instanceType).toLowerCase() || OTHER_FAMILY;
}

/**
 * A policy's savings for one month of its window: its savings spread evenly
 * over launch to end and counted for SAVINGS_MONTH_DAYS days. A policy shorter
 * than that counts its whole savings once, never more than it saves in total.
 */
export function monthlySavingsOf(policy: OverviewPolicy): number {
  const launchMs = Date.parse(policy.capacityConfiguration.launchDateTime);
  const endMs = Date.parse(policy.capacityConfiguration.endDateTime);
  const windowDays = (endMs - launchMs) / DAY_MS;
  if (!Number.isFinite(windowDays) || windowDays <= 0) return policy.pricing.savings;
  return policy.pricing.savings * Math.min(1, SAVINGS_MONTH_DAYS / windowDays);
}

/**
 * The overview's figures from every capacity policy of the user. Pure: the
 * caller fetches the policies and says what "now" is, so tests can pin both.
 */
export function summarizeCapacities(
  policies: readonly OverviewPolicy[],
  asOf: Date,
  options: SummaryOptions = {},
): OverviewSummary {
  const windowDays = options.windowDays ?? OVERVIEW_WINDOW_DAYS;
  const listLimit = options.listLimit ?? 8;
  const familyLimit = options.familyLimit ?? 8;
  const nowMs = asOf.getTime();
  const windowEndMs = nowMs + windowDays * DAY_MS;
  const inWindow = (ms: number) => ms >= nowMs && ms < windowEndMs;
  const dayOf = (ms: number) => Math.floor((ms - nowMs) / DAY_MS);

  const byStatus = new Map<string, number>(CAPACITY_STATUSES.map((status) => [status, 0]));
  const launching = new Map<string, number>();
  const ending = new Map<string, number>();
  const timeline = Array.from({ length: windowDays }, (_, day) => ({ day, launches: 0, ends: 0 }));
  const milestones: PolicyMilestone[] = [];
  const renewalRisk: PolicyMilestone[] = [];
  const families = new Map<string, { monthly: number; policies: number }>();
  let monthlyTotal = 0;
  let activePolicies = 0;

  for (const policy of policies) {
    const status = policy.policyStatus;
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const config = policy.capacityConfiguration;
    const launchMs = Date.parse(config.launchDateTime);
    const endMs = Date.parse(config.endDateTime);
    const milestone = (kind: PolicyMilestone['kind'], at: string): PolicyMilestone => ({
      cidrId: policy.cidrId,
      policyName: policy.policyName,
      policyStatus: status,
      kind,
      at,
    });

    if (UPCOMING_STATUSES.includes(status)) {
      if (inWindow(launchMs)) {
        launching.set(status, (launching.get(status) ?? 0) + 1);
        (timeline[dayOf(launchMs)] as (typeof timeline)[number]).launches += 1;
        milestones.push(milestone('launch', config.launchDateTime));
      }
      if (inWindow(endMs)) {
        ending.set(status, (ending.get(status) ?? 0) + 1);
        (timeline[dayOf(endMs)] as (typeof timeline)[number]).ends += 1;
        milestones.push(milestone('end', config.endDateTime));
      }
    }

    if (status === 'ACTIVE') {
      activePolicies += 1;
      if (!config.autoRenewalEnabled && inWindow(endMs)) renewalRisk.push(milestone('end', config.endDateTime));
      const monthly = monthlySavingsOf(policy);
      monthlyTotal += monthly;
      const family = instanceFamily(policy.policyInstance.instanceType);
      const entry = families.get(family) ?? { monthly: 0, policies: 0 };
      entry.monthly += monthly;
      entry.policies += 1;
      families.set(family, entry);
    }
  }

  const bySoonest = (a: PolicyMilestone, b: PolicyMilestone) =>
    Date.parse(a.at) - Date.parse(b.at) || a.cidrId.localeCompare(b.cidrId) || a.kind.localeCompare(b.kind);

  return {
    asOf: asOf.toISOString(),
    windowDays,
    totalPolicies: policies.length,
    byStatus: [...byStatus].map(([status, count]) => ({ status, count })),
    launching: breakdown(launching),
    ending: breakdown(ending),
    endingWithoutRenewal: { total: renewalRisk.length, soonest: renewalRisk.sort(bySoonest).slice(0, listLimit) },
    monthlySavings: {
      total: cents(monthlyTotal),
      activePolicies,
      monthDays: SAVINGS_MONTH_DAYS,
      byFamily: topFamilies(families, familyLimit),
    },
    timeline,
    upcoming: milestones.sort(bySoonest).slice(0, listLimit),
  };
}

/** Counts of one rule in the order of UPCOMING_STATUSES, zero parts left out. */
function breakdown(counts: ReadonlyMap<string, number>): StatusBreakdown {
  const byStatus: StatusCount[] = UPCOMING_STATUSES.filter((status) => (counts.get(status) ?? 0) > 0).map((status) => ({
    status,
    count: counts.get(status) ?? 0,
  }));
  return { total: byStatus.reduce((sum, part) => sum + part.count, 0), byStatus };
}

function topFamilies(families: ReadonlyMap<string, { monthly: number; policies: number }>, limit: number): FamilySavings[] {
  const sorted = [...families]
    .map(([family, { monthly, policies }]) => ({ family, monthly, policies }))
    .sort((a, b) => b.monthly - a.monthly || a.family.localeCompare(b.family));
  const shown = sorted.slice(0, limit);
  const rest = sorted.slice(limit);
  if (rest.length > 0) {
    shown.push({
      family: OTHER_FAMILY,
      monthly: rest.reduce((sum, family) => sum + family.monthly, 0),
      policies: rest.reduce((sum, family) => sum + family.policies, 0),
    });
  }
  return shown.map((family) => ({ ...family, monthly: cents(family.monthly) }));
}

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}
