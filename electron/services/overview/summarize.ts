import { z } from 'zod';
import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import { CAPACITY_STATUSES } from '../../../shared/api/contract-choices.js';
import { OVERVIEW_WINDOW_DAYS, SAVINGS_MONTH_DAYS, type FamilySavings, type OverviewSummary, type PolicyMilestone, type StatusBreakdown, type StatusCount } from '../../../shared/ipc/overview.js';

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

/** Items left out of the overview whose reasons are listed; the count covers all. */
export const MAX_SKIPPED_DETAILS = 50;

/** The overview's defaults: the window, how many milestones it lists, how many families it shows apart. */
export function summaryOptions(options: SummaryOptions) {
  return { windowDays: options.windowDays ?? OVERVIEW_WINDOW_DAYS, listLimit: options.listLimit ?? 8, familyLimit: options.familyLimit ?? 8 };
}

/** Soonest first; at the same instant by id, then launch before end. */
export function bySoonest(a: PolicyMilestone, b: PolicyMilestone): number {
  return Date.parse(a.at) - Date.parse(b.at) || a.cidrId.localeCompare(b.cidrId) || a.kind.localeCompare(b.kind);
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
export function monthlySavingsOf(policy: CapacityRow): number {
  // A policy whose savings the service did not state adds nothing (never a guess).
  return monthlyShareOf(policy.pricing?.savings ?? 0, policy);
}

/** One month's share of an amount of a policy's whole window (its savings, its price), as monthlySavingsOf counts it. */
export function monthlyShareOf(savings: number, policy: CapacityRow): number {
  return monthlyShare(savings, Date.parse(policy.capacityConfiguration?.launchDateTime ?? ''), Date.parse(policy.capacityConfiguration?.endDateTime ?? ''));
}

/** monthlyShareOf from the window's instants (NaN where a date is not known). */
export function monthlyShare(savings: number, launchMs: number, endMs: number): number {
  const windowDays = (endMs - launchMs) / DAY_MS;
  if (!Number.isFinite(windowDays) || windowDays <= 0) return savings;
  return savings * Math.min(1, SAVINGS_MONTH_DAYS / windowDays);
}

/** The status of a policy whose answer did not state one. */
export const UNKNOWN_STATUS = 'UNKNOWN';

/**
 * The overview's figures from every capacity policy of the user. Pure: the
 * caller fetches the policies and says what "now" is, so tests can pin both.
 */
export function summarizeCapacities(
  policies: readonly CapacityRow[],
  asOf: Date,
  options: SummaryOptions = {},
  skipped: readonly SkippedItem[] = [],
): OverviewSummary {
  const summary = new CapacitySummary(asOf, options);
  for (const policy of policies) summary.add(policy);
  return summary.result(skipped);
}

type TimelineDay = OverviewSummary['timeline'][number];

/**
 * summarizeCapacities a policy at a time, so a caller with a long list can add them in time slices (the live
 * overview over 1,000,000 fetched policies was one piece of seconds on the main process). Only the listed
 * milestones are kept in order (the soonest listLimit), not every milestone sorted at the end.
 */
export class CapacitySummary {
  readonly #asOf: Date;
  readonly #windowDays: number;
  readonly #familyLimit: number;
  readonly #nowMs: number;
  readonly #windowEndMs: number;
  readonly #byStatus = new Map<string, number>(CAPACITY_STATUSES.map((status) => [status, 0]));
  readonly #launching = new Map<string, number>();
  readonly #ending = new Map<string, number>();
  readonly #timeline: TimelineDay[];
  readonly #upcoming: SoonestFirst;
  readonly #renewalRisk: SoonestFirst;
  readonly #savings = new MonthlySavingsTally();
  #total = 0;

  constructor(asOf: Date, options: SummaryOptions = {}) {
    const { windowDays, listLimit, familyLimit } = summaryOptions(options);
    this.#asOf = asOf;
    this.#windowDays = windowDays;
    this.#familyLimit = familyLimit;
    this.#nowMs = asOf.getTime();
    this.#windowEndMs = this.#nowMs + windowDays * DAY_MS;
    this.#timeline = Array.from({ length: windowDays }, (_, day) => ({ day, launches: 0, ends: 0 }));
    this.#upcoming = new SoonestFirst(listLimit);
    this.#renewalRisk = new SoonestFirst(listLimit);
  }

  add(policy: CapacityRow): void {
    const inWindow = (ms: number) => ms >= this.#nowMs && ms < this.#windowEndMs;
    const dayOf = (ms: number) => Math.floor((ms - this.#nowMs) / DAY_MS);
    this.#total += 1;
    const status = policy.policyStatus ?? UNKNOWN_STATUS;
    this.#byStatus.set(status, (this.#byStatus.get(status) ?? 0) + 1);
    const launchAt = policy.capacityConfiguration?.launchDateTime;
    const endAt = policy.capacityConfiguration?.endDateTime;
    // A date the answer did not state is never in the window.
    const launchMs = launchAt ? Date.parse(launchAt) : Number.NaN;
    const endMs = endAt ? Date.parse(endAt) : Number.NaN;
    const milestone = (kind: PolicyMilestone['kind'], at: string): PolicyMilestone => ({
      cidrId: policy.cidrId,
      ...(policy.policyName !== undefined ? { policyName: policy.policyName } : {}),
      policyStatus: status,
      kind,
      at,
    });

    if (UPCOMING_STATUSES.includes(status)) {
      if (launchAt && inWindow(launchMs)) {
        this.#launching.set(status, (this.#launching.get(status) ?? 0) + 1);
        (this.#timeline[dayOf(launchMs)] as TimelineDay).launches += 1;
        this.#upcoming.add(milestone('launch', launchAt));
      }
      if (endAt && inWindow(endMs)) {
        this.#ending.set(status, (this.#ending.get(status) ?? 0) + 1);
        (this.#timeline[dayOf(endMs)] as TimelineDay).ends += 1;
        this.#upcoming.add(milestone('end', endAt));
      }
    }

    if (status === 'ACTIVE') {
      // Only a renewal the answer states as off is a risk; an unknown one is not claimed.
      if (policy.capacityConfiguration?.autoRenewalEnabled === false && endAt && inWindow(endMs)) this.#renewalRisk.add(milestone('end', endAt));
      this.#savings.add(policy.policyInstance?.instanceType ?? OTHER_FAMILY, monthlySavingsOf(policy), launchMs, this.#nowMs);
    }
  }

  result(skipped: readonly SkippedItem[] = []): OverviewSummary {
    return {
      asOf: this.#asOf.toISOString(),
      windowDays: this.#windowDays,
      totalPolicies: this.#total,
      byStatus: [...this.#byStatus].map(([status, count]) => ({ status, count })),
      launching: breakdown(this.#launching),
      ending: breakdown(this.#ending),
      endingWithoutRenewal: { total: this.#renewalRisk.count, soonest: this.#renewalRisk.list() },
      monthlySavings: this.#savings.summary(this.#familyLimit),
      timeline: this.#timeline,
      upcoming: this.#upcoming.list(),
      skipped: skipped.slice(0, MAX_SKIPPED_DETAILS),
      skippedCount: skipped.length,
    };
  }
}

/**
 * The soonest `limit` milestones of those added, as a stable sort by bySoonest cut to `limit` would list them
 * (a tie keeps the order added), and how many were added.
 */
export class SoonestFirst {
  readonly #kept: PolicyMilestone[] = [];
  count = 0;

  constructor(readonly limit: number) {}

  add(milestone: PolicyMilestone): void {
    this.count += 1;
    const kept = this.#kept;
    if (this.limit <= 0) return;
    if (kept.length === this.limit && bySoonest(milestone, kept[kept.length - 1] as PolicyMilestone) >= 0) return;
    // After every kept one that is not later: ties stay in the order added.
    let at = kept.length;
    while (at > 0 && bySoonest(milestone, kept[at - 1] as PolicyMilestone) < 0) at -= 1;
    kept.splice(at, 0, milestone);
    if (kept.length > this.limit) kept.pop();
  }

  list(): PolicyMilestone[] {
    return [...this.#kept];
  }
}

/** Counts of one rule in the order of UPCOMING_STATUSES, zero parts left out. */
export function breakdown(counts: ReadonlyMap<string, number>): StatusBreakdown {
  const byStatus: StatusCount[] = UPCOMING_STATUSES.filter((status) => (counts.get(status) ?? 0) > 0).map((status) => ({
    status,
    count: counts.get(status) ?? 0,
  }));
  return { total: byStatus.reduce((sum, part) => sum + part.count, 0), byStatus };
}

/**
 * An active policy that has not launched yet: bought, not yet running, so not part of what is paid (or saved) a
 * month now (money14, savings15). One whose launch is not known is taken as running (it is active; nothing says
 * it is not); one past its end while still ACTIVE too: its status is the service's word, not the app's guess.
 */
export function launchesLater(launchMs: number, nowMs: number): boolean {
  return Number.isFinite(launchMs) && launchMs > nowMs;
}

/**
 * The running active policies' monthly savings as the overview shows them (the customer page's rule, money14): the
 * total and each instance family's part, and apart, the active policies launching later and what they will add.
 * Added in row order by both the row pass and the replica's SQL pass (a float sum depends on its order; the figures
 * round to the cent). It also notes the launches nearest "now" on each side (`since`, `until`): the tally holds for
 * any "now" between them, and must be counted again once "now" passes one (a policy launching tomorrow becomes
 * running without a write).
 */
export class MonthlySavingsTally {
  readonly #families = new Map<string, { monthly: number; policies: number }>();
  #total = 0;
  #policies = 0;
  #later = 0;
  #laterMonthly = 0;
  #since: number | null = null;
  #until: number | null = null;

  add(instanceType: string, monthly: number, launchMs: number, nowMs: number): void {
    if (launchesLater(launchMs, nowMs)) {
      this.#later += 1;
      this.#laterMonthly += monthly;
      this.#until = this.#until === null ? launchMs : Math.min(this.#until, launchMs);
      return;
    }
    if (Number.isFinite(launchMs)) this.#since = this.#since === null ? launchMs : Math.max(this.#since, launchMs);
    this.#policies += 1;
    this.#total += monthly;
    const family = instanceFamily(instanceType);
    const entry = this.#families.get(family) ?? { monthly: 0, policies: 0 };
    entry.monthly += monthly;
    entry.policies += 1;
    this.#families.set(family, entry);
  }

  summary(familyLimit: number): OverviewSummary['monthlySavings'] {
    return {
      total: cents(this.#total),
      runningPolicies: this.#policies,
      launchingLater: this.#later,
      monthlyLaunching: cents(this.#laterMonthly),
      monthDays: SAVINGS_MONTH_DAYS,
      byFamily: topFamilies(this.#families, familyLimit),
    };
  }

  /** Whether the tally, counted at some "now", holds at `nowMs`: no active policy's launch lies between the two. */
  holdsAt(nowMs: number): boolean {
    return (this.#since === null || this.#since <= nowMs) && (this.#until === null || nowMs < this.#until);
  }

  /** The sums as added, unrounded, for keeping (replica-overview.ts): a tally made again from them sums to the same figures. */
  kept(): KeptSavings {
    return {
      total: this.#total,
      policies: this.#policies,
      families: [...this.#families].map(([family, { monthly, policies }]) => [family, monthly, policies]),
      later: [this.#later, this.#laterMonthly],
      since: this.#since,
      until: this.#until,
    };
  }

  static from(kept: KeptSavings): MonthlySavingsTally {
    const tally = new MonthlySavingsTally();
    tally.#total = kept.total;
    tally.#policies = kept.policies;
    for (const [family, monthly, policies] of kept.families) tally.#families.set(family, { monthly, policies });
    [tally.#later, tally.#laterMonthly] = kept.later;
    tally.#since = kept.since;
    tally.#until = kept.until;
    return tally;
  }
}

/** A tally's unrounded sums; families as pairs in the order first met (a family named `__proto__` is a name like any other). */
export const KeptSavings = z.object({
  total: z.number(),
  policies: z.number().int().min(0),
  families: z.array(z.tuple([z.string(), z.number(), z.number().int().min(0)])),
  /** The active policies launching later: how many, and their monthly savings summed. */
  later: z.tuple([z.number().int().min(0), z.number()]),
  /** The latest launch at or before the "now" it was counted at, and the soonest after (null: none). */
  since: z.number().nullable(),
  until: z.number().nullable(),
});
export type KeptSavings = z.infer<typeof KeptSavings>;

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

export function cents(value: number): number {
  return Math.round(value * 100) / 100;
}
