import { z } from 'zod';

/** What a cancel and a DR termination answered, as the window shows it. */

export const CancelResult = z.object({
  message: z.string(),
  /** The early-cancellation fee read from the message; null when the message states none. */
  fee: z.number().nullable(),
});
export type CancelResult = z.infer<typeof CancelResult>;

export const TerminateResult = z.object({
  /** created: 201, a new termination event; already-triggered: 200, one existed. */
  outcome: z.enum(['created', 'already-triggered']),
  eventId: z.number().int().nullable(),
  message: z.string(),
});
export type TerminateResult = z.infer<typeof TerminateResult>;
