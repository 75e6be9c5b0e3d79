/**
 * The estimated early-cancellation fee of a policy, by the sandbox's stated
 * schedule (docs/sandbox.md): free 30 days or more before launch, 10 % of our
 * price from 7 to 30 days before, 25 % under 7 days, and after launch 50 % of
 * our price times the share of the window still to run.
 *
 * A seam: the agreement's own schedule per environment (and the one module
 * that owns the fee arithmetic) is being built apart; this function is where
 * the bulk cancel will ask it instead. Always shown as an estimate.
 */

const DAY_MS = 86_400_000;

export interface FeeEstimate {
  /** Rounded to cents. */
  readonly fee: number;
  /** The rule that applies, in words. */
  readonly rule: string;
}

export function estimateCancellationFee(
  policy: { readonly ourPrice: number | undefined; readonly launchDateTime: string | undefined; readonly endDateTime: string | undefined },
  nowMs: number,
): FeeEstimate | null {
  const launchMs = Date.parse(policy.launchDateTime ?? '');
  const endMs = Date.parse(policy.endDateTime ?? '');
  const price = policy.ourPrice;
  if (price === undefined || !Number.isFinite(price) || Number.isNaN(launchMs) || Number.isNaN(endMs)) return null;
  const untilLaunch = launchMs - nowMs;
  if (untilLaunch >= 30 * DAY_MS) return { fee: 0, rule: 'free: launches in 30 days or more' };
  if (untilLaunch >= 7 * DAY_MS) return { fee: cents(price * 0.1), rule: '10 %: launches in 7 to 30 days' };
  if (untilLaunch > 0) return { fee: cents(price * 0.25), rule: '25 %: launches in under 7 days' };
  const window = endMs - launchMs;
  const share = window > 0 ? Math.min(1, Math.max(0, (endMs - nowMs) / window)) : 0;
  return { fee: cents(price * 0.5 * share), rule: `50 % of the ${Math.round(share * 100)} % of the window still to run` };
}

function cents(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}
