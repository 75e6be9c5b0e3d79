import type { CapacityRow } from '../../../shared/api/readers.js';
import type { ActivityEntry } from '../../../shared/own-data/activity.js';
import { CUSTOMER_HORIZONS, type CustomerHorizon, type CustomerTotals } from '../../../shared/ipc/customers.js';
import type { PolicyMilestone } from '../../../shared/ipc/overview.js';
import { cents, monthlyShare, UNKNOWN_STATUS, UPCOMING_STATUSES } from '../overview/summarize.js';

const DAY_MS = 86_400_000;
/** Statuses of a policy that ran (or runs): its savings were delivered over the part of its window that passed. */
const DELIVERING = new Set(['ACTIVE', 'COMPLETED', 'EXPIRED']);
/** Statuses of a bought policy, whose processing fee was charged (the page reads the fee of these only). */
export const BOUGHT_STATUSES: readonly string[] = ['ACTIVE', 'COMPLETED', 'EXPIRED', 'CANCELED'];
const BOUGHT = new Set(BOUGHT_STATUSES);


/** A policy's processing fee as charged (by card, else by bank account); null when its record names none. */
export function processingFee(policy: CapacityRow): number | null {
  const fee = policy.pricing?.creditCardProcessingFee ?? policy.pricing?.bankAccountProcessingFee;
  return typeof fee === 'number' ? fee : null;
}

/** The part of a policy's savings that falls between `fromMs` and `toMs`: savings spread evenly over its window (NaN where a date is not known). */
function savingsOver(savings: number, launchMs: number, endMs: number, fromMs: number, toMs: number): number {
  if (!Number.isFinite(launchMs) || !Number.isFinite(endMs) || endMs <= launchMs) return 0;
  const overlap = Math.min(endMs, toMs) - Math.max(launchMs, fromMs);
  return overlap <= 0 ? 0 : (savings * overlap) / (endMs - launchMs);
}

const msOf = (at: string | undefined): number => (at ? Date.parse(at) : Number.NaN);

export interface CustomerFigures {
  readonly totals: Omit<CustomerTotals, 'activeDr'>;
  readonly horizons: CustomerHorizon[];
  readonly milestones: PolicyMilestone[];
}

/**
 * A customer page's figures from the customer's capacity policies and the
 * activity record of them. Pure: the caller says what "now" is.
 */
export function summarizeCustomer(policies: readonly CapacityRow[], activity: readonly ActivityEntry[], asOf: Date): CustomerFigures {
  const nowMs = asOf.getTime();
  const monthStart = Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), 1);
  const yearStart = Date.UTC(asOf.getUTCFullYear(), 0, 1);
  const longest = Math.max(...CUSTOMER_HORIZONS);
  const horizons = CUSTOMER_HORIZONS.map((days) => ({ days, launches: 0, ends: 0, renews: 0 }));
  let activeCapacity = 0;
  let monthlySpend = 0;
  let savingsThisMonth = 0;
  let savingsYearToDate = 0;
  let processingFees = 0;

  // Each date parsed once per policy: parsed for each sum and in the milestones' order, the parses were most
  // of the figures of a large customer (5,000 policies).
  const dated: Array<{ readonly ms: number; readonly milestone: PolicyMilestone }> = [];
  for (const policy of policies) {
    const status = policy.policyStatus ?? UNKNOWN_STATUS;
    const config = policy.capacityConfiguration;
    const launchMs = msOf(config?.launchDateTime);
    const endMs = msOf(config?.endDateTime);
    if (status === 'ACTIVE') {
      activeCapacity += 1;
      monthlySpend += monthlyShare(policy.pricing?.ourPrice ?? 0, launchMs, endMs);
    }
    if (DELIVERING.has(status)) {
      const savings = policy.pricing?.savings ?? 0;
      savingsThisMonth += savingsOver(savings, launchMs, endMs, monthStart, nowMs);
      savingsYearToDate += savingsOver(savings, launchMs, endMs, yearStart, nowMs);
    }
    if (BOUGHT.has(status)) processingFees += processingFee(policy) ?? 0;
    if (!UPCOMING_STATUSES.includes(status)) continue;
    const moments: Array<[PolicyMilestone['kind'], string | undefined, number]> = [
      ['launch', config?.launchDateTime, launchMs],
      ['end', config?.endDateTime, endMs],
    ];
    for (const [kind, at, ms] of moments) {
      if (!at || !(ms >= nowMs)) continue;
      const inDays = (ms - nowMs) / DAY_MS;
      if (inDays >= longest) continue;
      for (const horizon of horizons) {
        if (inDays >= horizon.days) continue;
        if (kind === 'launch') horizon.launches += 1;
        else if (config?.autoRenewalEnabled === true) horizon.renews += 1;
        else horizon.ends += 1;
      }
      dated.push({ ms, milestone: { cidrId: policy.cidrId, ...(policy.policyName !== undefined ? { policyName: policy.policyName } : {}), policyStatus: status, kind, at } });
    }
  }
  const cancellationFees = activity.reduce((sum, entry) => sum + (entry.action === 'cancel' && entry.fee !== null ? entry.fee : 0), 0);
  const milestones = dated.sort((a, b) => a.ms - b.ms || a.milestone.cidrId.localeCompare(b.milestone.cidrId)).map(({ milestone }) => milestone);
  return {
    totals: {
      activeCapacity,
      monthlySpend: cents(monthlySpend),
      savingsThisMonth: cents(savingsThisMonth),
      savingsYearToDate: cents(savingsYearToDate),
      processingFees: cents(processingFees),
      cancellationFees: cents(cancellationFees),
    },
    horizons,
    milestones: milestones.slice(0, 50),
  };
}
