import { z } from 'zod';

/** The three actions that move money or trigger disaster recovery. */
export const MONEY_ACTIONS = ['purchase', 'cancel', 'terminate'] as const;
export const MoneyActionName = z.enum(MONEY_ACTIONS);
export type MoneyActionName = z.infer<typeof MoneyActionName>;

/**
 * Where one policy's money actions stand, as the main process holds it for
 * every window and caller:
 * - free: a purchase, cancel or termination may be sent;
 * - in-flight: one is being sent; nothing else is sent for the policy;
 * - uncertain: one got no clear answer (timeout, lost connection, 5xx); nothing
 *   is sent for the policy until reading it back shows the outcome.
 */
export const MoneyState = z.object({
  /** The environment (profile) the policy belongs to. */
  profileId: z.string(),
  cidrId: z.string(),
  state: z.enum(['free', 'in-flight', 'uncertain']),
  /** The action in flight or uncertain; when free, the action the last check settled (if any). */
  action: MoneyActionName.nullable(),
  /** ISO instant the action was sent (in-flight, uncertain). */
  since: z.string().nullable(),
  /**
   * uncertain: from this ISO instant a read-back that does not show the action
   * done is taken as final (the service no longer carries out the request).
   */
  finalAfter: z.string().nullable(),
  /** When free after a check: what the read-back showed. */
  outcome: z.enum(['done', 'not-done']).nullable(),
  /** Where things stand, in plain words; empty when there is nothing to say. */
  message: z.string(),
});
export type MoneyState = z.infer<typeof MoneyState>;
