const DAY_MS = 86_400_000;

/**
 * The sandbox's early-cancellation fee (stated in docs/sandbox.md):
 * by time left before launch, then by the share of the window still to run.
 */
export const FEE_RULE = {
  freeDaysBeforeLaunch: 30,
  lowRateDaysBeforeLaunch: 7,
  lowRate: 0.1,
  highRate: 0.25,
  afterLaunchRate: 0.5,
} as const;

/** Rounded to cents, as the cancel message states it. */
export function cancellationFee(ourPrice: number, launchMs: number, endMs: number, nowMs: number): number {
  const untilLaunch = launchMs - nowMs;
  let fee: number;
  if (untilLaunch >= FEE_RULE.freeDaysBeforeLaunch * DAY_MS) fee = 0;
  else if (untilLaunch >= FEE_RULE.lowRateDaysBeforeLaunch * DAY_MS) fee = ourPrice * FEE_RULE.lowRate;
  else if (untilLaunch > 0) fee = ourPrice * FEE_RULE.highRate;
  else {
    const window = endMs - launchMs;
    const remaining = window > 0 ? Math.min(1, Math.max(0, (endMs - nowMs) / window)) : 0;
    fee = ourPrice * FEE_RULE.afterLaunchRate * remaining;
  }
  return roundCents(fee);
}

export function roundCents(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}
