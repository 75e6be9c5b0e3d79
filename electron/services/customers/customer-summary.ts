import type { CapacityRow } from '../../../shared/api/readers.js';
import type { ActivityEntry } from '../../../shared/own-data/activity.js';
import { CUSTOMER_HORIZONS, type CustomerHorizon, type CustomerTotals } from '../../../shared/ipc/customers.js';
import type { PolicyMilestone } from '../../../shared/ipc/overview.js';
import { cents, launchesLater, monthlyShare, UNKNOWN_STATUS, UPCOMING_STATUSES } from '../overview/summarize.js';

const DAY_MS = 86_400_000;
/** Statuses of a policy that ran (or runs): its savings were delivered over the part of its window that passed. */
const DELIVERING = new Set(['ACTIVE', 'COMPLETED', 'EXPIRED']);
/**
 * A canceled policy ran until its cancel: the savings of that part were delivered (the fee is charged on the
 * part still to run). The service does not say when a policy was canceled; this app's own cancels say it.
 */
const CANCELED = 'CANCELED';
/** Outcomes of an activity entry after which the service had done it. */
const DONE = new Set(['succeeded', 'settled-done']);
/** Statuses of a bought policy, whose processing fee was charged (the page reads the fee of these only). */
export const BOUGHT_STATUSES: readonly string[] = ['ACTIVE', 'COMPLETED', 'EXPIRED', 'CANCELED'];
const BOUGHT = new Set(BOUGHT_STATUSES);


/**
 * A policy's processing fees as the service states them: one for a card, one for a bank transfer (either may be
 * null). The service does not say which way the customer pays (seed/api-spec.md: two fields, "number or null").
 */
export function cardFee(policy: CapacityRow): number | null {
  const fee = policy.pricing?.creditCardProcessingFee;
  return typeof fee === 'number' ? fee : null;
}
export function bankFee(policy: CapacityRow): number | null {
  const fee = policy.pricing?.bankAccountProcessingFee;
  return typeof fee === 'number' ? fee : null;
}

/** The part of a policy's savings that falls between `fromMs` and `toMs`: savings spread evenly over its window (NaN where a date is not known). */
function savingsOver(savings: number, launchMs: number, endMs: number, fromMs: number, toMs: number): number {
  if (!Number.isFinite(launchMs) || !Number.isFinite(endMs) || endMs <= launchMs) return 0;
  const overlap = Math.min(endMs, toMs) - Math.max(launchMs, fromMs);
  return overlap <= 0 ? 0 : (savings * overlap) / (endMs - launchMs);
}

const msOf = (at: string | undefined): number => (at ? Date.parse(at) : Number.NaN);

/** When this app canceled each capacity policy it canceled (the first cancel the service did), by id. */
function cancelMoments(activity: readonly ActivityEntry[]): Map<string, number> {
  const cancels = activity.filter((entry) => entry.policyKind === 'capacity' && entry.action === 'cancel');
  // A settled-done entry is written at the read-back that found the cancel done (the next launch, say: days later);
  // the service did it when it was sent, just before the 'unknown' entry of its missing answer (review13).
  const unanswered = cancels.filter((entry) => entry.outcome === 'unknown').map((entry) => ({ cidrId: entry.cidrId, at: Date.parse(entry.at) }));
  const moments = new Map<string, number>();
  for (const entry of cancels) {
    if (!DONE.has(entry.outcome)) continue;
    let at = Date.parse(entry.at);
    if (entry.outcome === 'settled-done') {
      const sent = unanswered.filter((unknown) => unknown.cidrId === entry.cidrId && unknown.at <= at).reduce((latest, unknown) => Math.max(latest, unknown.at), Number.NEGATIVE_INFINITY);
      if (Number.isFinite(sent)) at = sent;
    }
    const known = moments.get(entry.cidrId);
    if (Number.isFinite(at) && (known === undefined || at < known)) moments.set(entry.cidrId, at);
  }
  return moments;
}

export interface CustomerFigures {
  readonly totals: CustomerTotals;
  readonly horizons: CustomerHorizon[];
  readonly milestones: PolicyMilestone[];
}

/**
 * A customer page's figures from the customer's capacity policies and the
 * activity record of them. Pure: the caller says what "now" is.
 */
export function summarizeCustomer(policies: readonly CapacityRow[], activity: readonly ActivityEntry[], asOf: Date): CustomerFigures {
  const nowMs = asOf.getTime();
  const canceledAt = cancelMoments(activity);
  const monthStart = Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), 1);
  const yearStart = Date.UTC(asOf.getUTCFullYear(), 0, 1);
  const longest = Math.max(...CUSTOMER_HORIZONS);
  const horizons = CUSTOMER_HORIZONS.map((days) => ({ days, launches: 0, ends: 0, renews: 0 }));
  let activeCapacity = 0;
  let monthlySpend = 0;
  let launchingLater = 0;
  let monthlySpendLaunching = 0;
  let savingsThisMonth = 0;
  let savingsYearToDate = 0;
  let processingFeesByCard = 0;
  let processingFeesByBank = 0;
  let canceledUncounted = 0;

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
      // Bought but not launched: the customer does not pay for it this month (day13). Said apart, not summed in.
      const monthly = monthlyShare(policy.pricing?.ourPrice ?? 0, launchMs, endMs);
      if (launchesLater(launchMs, nowMs)) {
        launchingLater += 1;
        monthlySpendLaunching += monthly;
      } else {
        monthlySpend += monthly;
      }
    }
    if (DELIVERING.has(status)) {
      const savings = policy.pricing?.savings ?? 0;
      savingsThisMonth += savingsOver(savings, launchMs, endMs, monthStart, nowMs);
      savingsYearToDate += savingsOver(savings, launchMs, endMs, yearStart, nowMs);
    } else if (status === CANCELED) {
      const cancelMs = canceledAt.get(policy.cidrId);
      const savings = policy.pricing?.savings ?? 0;
      if (cancelMs !== undefined) {
        const until = Math.min(nowMs, cancelMs);
        savingsThisMonth += savingsOver(savings, launchMs, endMs, monthStart, until);
        savingsYearToDate += savingsOver(savings, launchMs, endMs, yearStart, until);
      } else if (savings > 0 && savingsOver(savings, launchMs, endMs, yearStart, nowMs) > 0) {
        // Canceled outside this app after it may have run this year: what it delivered is not known, and said so.
        canceledUncounted += 1;
      }
    }
    if (BOUGHT.has(status)) {
      // Paid one way or the other: a fee stated for one way only is what that policy costs either way.
      const card = cardFee(policy);
      const bank = bankFee(policy);
      processingFeesByCard += card ?? bank ?? 0;
      processingFeesByBank += bank ?? card ?? 0;
    }
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
      launchingLater,
      monthlySpend: cents(monthlySpend),
      monthlySpendLaunching: cents(monthlySpendLaunching),
      savingsThisMonth: cents(savingsThisMonth),
      savingsYearToDate: cents(savingsYearToDate),
      processingFeesByCard: cents(processingFeesByCard),
      processingFeesByBank: cents(processingFeesByBank),
      cancellationFees: cents(cancellationFees),
      canceledUncounted,
    },
    horizons,
    milestones: milestones.slice(0, 50),
  };
}
