import { z } from 'zod';

/**
 * The kinds of record the account manager keeps besides the activity record,
 * each a table row of (kind, id, body, updatedAt) in their own data. Each
 * feature defines the zod schema of its body and passes it with the kind
 * (electron/services/own-data); the kinds are named here once so two features
 * never share one by accident.
 */
export const OwnRecordKind = z.enum([
  /** The customer book: one record per customer. */
  'customer',
  /** The renewal worklist: one record per policy (state, note, snoozedUntil). */
  'worklist',
  /** Quotes given to customers. */
  'quote',
  /** Renewal reminders already given: one record per policy, milestone and lead time (never the same one twice). */
  'reminder',
]);
export type OwnRecordKind = z.infer<typeof OwnRecordKind>;

/** Record ids are the feature's own (a customer id, a policy id): any text, never a key of an object. */
export const OwnRecordId = z.string().min(1).max(500);

/** One kept record with its body in the shape `Body` (a feature's schema). */
export function ownRecord<Body extends z.ZodType>(body: Body) {
  return z.object({
    id: OwnRecordId,
    body,
    /** ISO instant of the last write of this record. */
    updatedAt: z.iso.datetime(),
  });
}
export type OwnRecord<Body> = { readonly id: string; readonly body: Body; readonly updatedAt: string };
