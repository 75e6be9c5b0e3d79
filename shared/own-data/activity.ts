import { z } from 'zod';
import { ErrorKind } from '../ipc/result.js';

/** The two kinds of policy this app acts on: capacity policies and disaster-recovery (DR) policies. */
export const ActivityPolicyKind = z.enum(['capacity', 'cyber']);
export type ActivityPolicyKind = z.infer<typeof ActivityPolicyKind>;

/** What this app did to a policy. */
export const ActivityAction = z.enum(['purchase', 'configure', 'autoRenewal', 'cancel', 'terminate']);
export type ActivityAction = z.infer<typeof ActivityAction>;

/**
 * How it ended, as known when the entry was written:
 * - succeeded: the service answered that it was done;
 * - not-done: it failed or was refused (`reason` says how);
 * - unknown: no clear answer, the policy's money actions are locked until a read-back settles it;
 * - settled-done / settled-not-done: a read-back after an unknown outcome showed it done, or not.
 */
export const ActivityOutcome = z.enum(['succeeded', 'not-done', 'unknown', 'settled-done', 'settled-not-done']);
export type ActivityOutcome = z.infer<typeof ActivityOutcome>;

/** One thing this app did to one policy: when, by whom, in which environment, and how it ended. Never a token or password. */
export const ActivityEntry = z.object({
  policyKind: ActivityPolicyKind,
  cidrId: z.string(),
  action: ActivityAction,
  outcome: ActivityOutcome,
  /** ISO instant the answer (or the read-back) was known. */
  at: z.iso.datetime(),
  /** The signed-in user and environment (profile id) that sent it. */
  username: z.string(),
  profileId: z.string(),
  /** not-done and unknown: the kind of failure and its plain-words message. */
  reason: z.object({ kind: ErrorKind, message: z.string() }).nullable(),
  /** A cancellation's early-cancellation fee, as the service stated it; null when it stated none. */
  fee: z.number().nullable(),
  /** A purchase's price (the policy's ourPrice in the service's answer); null when not known. */
  price: z.number().nullable(),
  /** A renewal change: switched on (with its frequency) or off. */
  autoRenewal: z.object({ enabled: z.boolean(), frequency: z.string().nullable() }).nullable(),
  /** A configuration: the fields sent and their values. */
  configured: z.array(z.object({ field: z.string(), value: z.string() })),
  /** A DR termination: the event the service created (null when one existed already). */
  eventId: z.number().int().nullable(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;
