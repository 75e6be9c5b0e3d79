import { z } from 'zod';

/** One notification that sums up the renewal reminders due now; a click opens the worklist. */
export const ReminderDigest = z.object({
  title: z.string(),
  body: z.string(),
  /** How many reminders it covers (one per policy milestone). */
  count: z.number().int().min(1),
});
export type ReminderDigest = z.infer<typeof ReminderDigest>;
