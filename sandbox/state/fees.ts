import { SANDBOX_FEE_SCHEDULE, cancellationFee as scheduledFee, roundCents } from '../../shared/money/fee-schedule.js';

export { roundCents };

/**
 * The sandbox's early-cancellation fee (stated in docs/sandbox.md): its
 * schedule and arithmetic are the app's own (shared/money/fee-schedule.ts),
 * so the Sandbox environment's estimate is what the sandbox charges.
 */
export function cancellationFee(ourPrice: number, launchMs: number, endMs: number, nowMs: number): number {
  return scheduledFee(SANDBOX_FEE_SCHEDULE, { ourPrice, launchMs, endMs }, nowMs).fee;
}
