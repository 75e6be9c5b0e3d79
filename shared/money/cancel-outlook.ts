import { estimateFee, freeUntil, type FeeEstimate, type FeeSchedule } from './fee-schedule.js';

/**
 * What canceling a policy now means in money, for the cancel dialog and the
 * cancel / keep / let-expire comparison: the estimated fee, the savings the
 * customer has had and would still have, and until when canceling is free.
 */

export interface PolicyMoney {
  readonly ourPrice: number;
  /** Savings against the provider's price over the whole window. */
  readonly savings: number;
  readonly launchMs: number;
  readonly endMs: number;
}

export interface CancelOutlook {
  /** null: the schedule is unknown. */
  readonly estimate: FeeEstimate | null;
  /** Share of the window still to run at `now` (1 before launch, 0 after the end). */
  readonly shareToRun: number;
  /** The savings of the part of the window still to run: lost by canceling, kept by keeping. */
  readonly savingsToCome: number;
  /** The savings of the part of the window already run: the customer keeps them either way. */
  readonly savingsDelivered: number;
  /** The last instant canceling costs nothing, when it is still ahead. */
  readonly freeUntilMs: number | null;
  /** Canceling would cost more than the savings still to come (keeping is cheaper in money). */
  readonly feeExceedsSavingsToCome: boolean | null;
  /** Before launch: the instant the fee moves to the next step of the schedule, and the fee from then on. */
  readonly nextStep: { readonly afterMs: number; readonly estimate: FeeEstimate } | null;
}

export function cancelOutlook(policy: PolicyMoney, schedule: FeeSchedule, nowMs: number): CancelOutlook {
  const window = policy.endMs - policy.launchMs;
  const shareToRun = nowMs <= policy.launchMs ? 1 : window > 0 ? Math.min(1, Math.max(0, (policy.endMs - nowMs) / window)) : 0;
  const savingsToCome = cents(policy.savings * shareToRun);
  const estimate = estimateFee(schedule, policy, nowMs);
  return {
    estimate,
    shareToRun,
    savingsToCome,
    savingsDelivered: cents(policy.savings - savingsToCome),
    freeUntilMs: freeUntil(schedule, policy.launchMs, nowMs),
    feeExceedsSavingsToCome: estimate ? estimate.fee > savingsToCome : null,
    nextStep: nextStepOf(policy, schedule, nowMs),
  };
}

const DAY_MS = 86_400_000;

function nextStepOf(policy: PolicyMoney, schedule: FeeSchedule, nowMs: number): CancelOutlook['nextStep'] {
  if (schedule.kind !== 'known' || nowMs >= policy.launchMs) return null;
  // A step applies while the time left is at least its days: the next one starts just after launch - days.
  const current = schedule.beforeLaunch.find((step) => policy.launchMs - nowMs >= step.daysBeforeLaunch * DAY_MS);
  if (!current) return null;
  const afterMs = policy.launchMs - current.daysBeforeLaunch * DAY_MS;
  const estimate = estimateFee(schedule, policy, afterMs + 1);
  return estimate ? { afterMs, estimate } : null;
}

function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
