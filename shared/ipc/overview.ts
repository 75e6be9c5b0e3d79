import { z } from 'zod';
import { SkippedItem } from '../api/tolerant.js';

/** overview.summary: the figures of every capacity policy, aggregated in the main process. */

/** The overview looks this many days ahead for launches, ends and renewals. */
export const OVERVIEW_WINDOW_DAYS = 30;
/**
 * "Monthly" savings: each ACTIVE policy's savings spread evenly over its window
 * (launch to end), counted for this many days. Written once so the overview's
 * figure and the words that explain it cannot disagree.
 */
export const SAVINGS_MONTH_DAYS = 30;

const Count = z.number().int().min(0);

export const StatusCount = z.object({ status: z.string(), count: Count });
export type StatusCount = z.infer<typeof StatusCount>;

/** Policies meeting one rule, split by status so each part can open the filtered list. */
export const StatusBreakdown = z.object({ total: Count, byStatus: z.array(StatusCount) });
export type StatusBreakdown = z.infer<typeof StatusBreakdown>;

/** A policy's launch or end inside the overview's window. */
export const PolicyMilestone = z.object({
  cidrId: z.string(),
  /** Absent when the service's answer did not state it. */
  policyName: z.string().optional(),
  policyStatus: z.string(),
  kind: z.enum(['launch', 'end']),
  at: z.iso.datetime({ offset: true }),
});
export type PolicyMilestone = z.infer<typeof PolicyMilestone>;

export const FamilySavings = z.object({
  /** The instance family (the type's part before the dot, e.g. m5), or "other" for the rest. */
  family: z.string(),
  monthly: z.number(),
  policies: Count,
});
export type FamilySavings = z.infer<typeof FamilySavings>;

/** One day of the launch/end timeline; day 0 starts at asOf. */
export const TimelineDay = z.object({ day: Count, launches: Count, ends: Count });
export type TimelineDay = z.infer<typeof TimelineDay>;

/** overview.summary: every capacity policy of the user, aggregated in the main process. */
export const OverviewSummary = z.object({
  /** The instant the figures were computed for; "the next N days" start here. */
  asOf: z.iso.datetime({ offset: true }),
  windowDays: z.number().int().min(1),
  totalPolicies: Count,
  /** Every known status in contract order (zero counts included), then any unknown one. */
  byStatus: z.array(StatusCount),
  /** ACTIVE and READY_FOR_PURCHASE policies launching within the window. */
  launching: StatusBreakdown,
  /** ACTIVE and READY_FOR_PURCHASE policies ending within the window. */
  ending: StatusBreakdown,
  /** ACTIVE policies with auto-renewal off that end within the window, soonest first (a few). */
  endingWithoutRenewal: z.object({ total: Count, soonest: z.array(PolicyMilestone) }),
  monthlySavings: z.object({
    total: z.number(),
    /** The running active policies summed in `total` (launched, or launch not known); `launchingLater` are not. */
    runningPolicies: Count,
    /** Active policies launching after `asOf`, and what their savings will add a month once running: not in `total`. */
    launchingLater: Count,
    monthlyLaunching: z.number(),
    monthDays: z.number().int().min(1),
    byFamily: z.array(FamilySavings),
  }),
  timeline: z.array(TimelineDay),
  /** The next launches and ends, soonest first (a few, for a readable list). */
  upcoming: z.array(PolicyMilestone),
  /** Policies of the answer that could not be counted (no id): how many, and why for the first few. */
  skippedCount: Count,
  skipped: z.array(SkippedItem),
});
export type OverviewSummary = z.infer<typeof OverviewSummary>;
