import { z } from 'zod';

/**
 * The early-cancellation fee: the one place its arithmetic lives. The service
 * states a fee only in its answer to a cancel, so the app estimates it from
 * the schedule of the agreement (kept with the environment); the sandbox
 * charges with the same function and its own schedule, so the estimate and
 * the sandbox cannot drift apart.
 */

const DAY_MS = 86_400_000;

/** "From this many days before launch on, this % of our price" (until a step with fewer days applies). */
export const FeeStep = z.object({
  daysBeforeLaunch: z
    .number({ error: 'Enter the days before launch' })
    .int({ error: 'Days before launch are whole days' })
    .min(0, { error: 'Days before launch are 0 or more' })
    .max(3660, { error: 'Days before launch are at most 3660' }),
  percent: z
    .number({ error: 'Enter the % of the price' })
    .min(0, { error: 'A fee is 0 % or more' })
    .max(100, { error: 'A fee is at most 100 % of the price' }),
});
export type FeeStep = z.infer<typeof FeeStep>;

/** After launch: a % of our price, optionally times the share of the window still to run. */
export const AfterLaunchRule = z.object({
  percent: FeeStep.shape.percent,
  ofRemainingWindow: z.boolean(),
});
export type AfterLaunchRule = z.infer<typeof AfterLaunchRule>;

const KnownSchedule = z.object({
  kind: z.literal('known'),
  beforeLaunch: z
    .array(FeeStep)
    .min(1, { error: 'Enter at least the row for 0 days before launch' })
    .max(20, { error: 'A schedule has at most 20 rows' })
    .superRefine((steps, ctx) => {
      const days = steps.map((step) => step.daysBeforeLaunch);
      if (new Set(days).size !== days.length) ctx.addIssue({ code: 'custom', message: 'Each number of days appears once' });
      if (!days.includes(0)) ctx.addIssue({ code: 'custom', message: 'Add a row for 0 days: the fee just before launch' });
    })
    // Most days first: the first step the time left reaches is the one that applies.
    .transform((steps) => [...steps].sort((a, b) => b.daysBeforeLaunch - a.daysBeforeLaunch)),
  afterLaunch: AfterLaunchRule,
});

/** The cancellation-fee schedule of an agreement; `unknown` until the person enters it. */
export const FeeSchedule = z.discriminatedUnion('kind', [z.object({ kind: z.literal('unknown') }), KnownSchedule]);
export type FeeSchedule = z.infer<typeof FeeSchedule>;
export type KnownFeeSchedule = z.infer<typeof KnownSchedule>;

/** The sandbox's stated rule (docs/sandbox.md): the Sandbox environment's schedule and what the sandbox charges. */
export const SANDBOX_FEE_SCHEDULE: KnownFeeSchedule = {
  kind: 'known',
  beforeLaunch: [
    { daysBeforeLaunch: 30, percent: 0 },
    { daysBeforeLaunch: 7, percent: 10 },
    { daysBeforeLaunch: 0, percent: 25 },
  ],
  afterLaunch: { percent: 50, ofRemainingWindow: true },
};

export interface FeeEstimate {
  /** Rounded to cents, as the service states it. */
  readonly fee: number;
  /** The % of our price that applies (before the window share, after launch). */
  readonly percent: number;
  /** After launch with a window share: the share of the window still to run (0..1); else 1. */
  readonly share: number;
  /** The rule that produced it, in words: "25 %: launches in under 7 days". */
  readonly rule: string;
}

export interface PolicyTimes {
  readonly ourPrice: number;
  readonly launchMs: number;
  readonly endMs: number;
}

/** The fee of canceling at `nowMs` under a known schedule. */
export function cancellationFee(schedule: KnownFeeSchedule, policy: PolicyTimes, nowMs: number): FeeEstimate {
  const untilLaunch = policy.launchMs - nowMs;
  if (untilLaunch > 0) {
    const steps = schedule.beforeLaunch;
    const index = steps.findIndex((step) => untilLaunch >= step.daysBeforeLaunch * DAY_MS);
    // A valid schedule has a 0-day step, which any time before launch reaches.
    const step = steps[index] ?? { daysBeforeLaunch: 0, percent: 0 };
    const later = steps[index - 1]?.daysBeforeLaunch;
    return {
      fee: roundCents(policy.ourPrice * fraction(step.percent)),
      percent: step.percent,
      share: 1,
      rule: `${percentText(step.percent)}: ${beforeLaunchWords(step.daysBeforeLaunch, later)}`,
    };
  }
  const { percent, ofRemainingWindow } = schedule.afterLaunch;
  const window = policy.endMs - policy.launchMs;
  const share = !ofRemainingWindow ? 1 : window > 0 ? Math.min(1, Math.max(0, (policy.endMs - nowMs) / window)) : 0;
  const rule = ofRemainingWindow
    ? `${percentText(percent)} of the price times the share of the window still to run (${percentText(Math.round(share * 1000) / 10)}): launched already`
    : `${percentText(percent)}: launched already`;
  return { fee: roundCents(policy.ourPrice * fraction(percent) * share), percent, share, rule };
}

/** The estimate, or null when the schedule is unknown. */
export function estimateFee(schedule: FeeSchedule, policy: PolicyTimes, nowMs: number): FeeEstimate | null {
  return schedule.kind === 'known' ? cancellationFee(schedule, policy, nowMs) : null;
}

/**
 * The last instant at which canceling is free, when there is one ahead: the
 * start of the most-days step with a 0 % fee (null when no such step or already past).
 */
export function freeUntil(schedule: FeeSchedule, launchMs: number, nowMs: number): number | null {
  if (schedule.kind !== 'known') return null;
  const first = schedule.beforeLaunch[0];
  if (!first || first.percent !== 0) return null;
  const until = launchMs - first.daysBeforeLaunch * DAY_MS;
  return until >= nowMs ? until : null;
}

/** The schedule as lines a customer can read, e.g. "0 %: launches in 30 days or more". */
export function scheduleLines(schedule: FeeSchedule): string[] {
  if (schedule.kind === 'unknown') return [];
  const steps = schedule.beforeLaunch;
  const lines = steps.map((step, index) => `${percentText(step.percent)}: ${beforeLaunchWords(step.daysBeforeLaunch, steps[index - 1]?.daysBeforeLaunch)}`);
  const after = schedule.afterLaunch;
  lines.push(
    after.ofRemainingWindow
      ? `${percentText(after.percent)} of the price times the share of the window still to run: launched already`
      : `${percentText(after.percent)}: launched already`,
  );
  return lines;
}

function beforeLaunchWords(days: number, laterDays: number | undefined): string {
  if (laterDays === undefined) return days === 0 ? 'any time before launch' : `launches in ${dayText(days)} or more`;
  if (days === 0) return `launches in under ${dayText(laterDays)}`;
  return `launches in ${days} to under ${dayText(laterDays)}`;
}

function dayText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

/** 25 -> "25 %", 12.5 -> "12.5 %" (the space as in the agreement's own wording). */
export function percentText(percent: number): string {
  return `${Number(percent.toFixed(2))} %`;
}

/** 25 -> 0.25: division is correctly rounded, so 10 % is exactly the double 0.1. */
function fraction(percent: number): number {
  return percent / 100;
}

export function roundCents(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}
