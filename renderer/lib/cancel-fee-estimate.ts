import { estimateFee, type FeeEstimate, type FeeSchedule } from '../../shared/money/fee-schedule.js';

export type { FeeEstimate };

/**
 * A list row's estimated early-cancellation fee under the environment's
 * schedule (the arithmetic is shared/money/fee-schedule.ts, which the sandbox
 * charges with too). Null when the row lacks its price or window, or the
 * schedule is unknown: then nothing is estimated, and the review says so.
 */
export function estimateCancellationFee(
  policy: { readonly ourPrice: number | undefined; readonly launchDateTime: string | undefined; readonly endDateTime: string | undefined },
  schedule: FeeSchedule,
  nowMs: number,
): FeeEstimate | null {
  const launchMs = Date.parse(policy.launchDateTime ?? '');
  const endMs = Date.parse(policy.endDateTime ?? '');
  const price = policy.ourPrice;
  if (price === undefined || !Number.isFinite(price) || Number.isNaN(launchMs) || Number.isNaN(endMs)) return null;
  return estimateFee(schedule, { ourPrice: price, launchMs, endMs }, nowMs);
}
