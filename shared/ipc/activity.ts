import { z } from 'zod';
import { PolicyRef } from './policy-refs.js';
import { ActivityEntry, ActivityPolicyKind } from '../own-data/activity.js';

export const ActivityQuery = z.object({
  policyKind: ActivityPolicyKind,
  policyId: PolicyRef.shape.cidrId,
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** A policy's activity record, newest first. */
export const ActivityList = z.object({
  entries: z.array(ActivityEntry),
  /** False without a keychain (nor the OS's encryption): the record is kept in memory for this session only. */
  persistent: z.boolean(),
});
export type ActivityList = z.infer<typeof ActivityList>;

/** The early-cancellation fee the service stated when this app canceled a policy, and when its answer came. */
export const StatedFee = z.object({
  cidrId: z.string(),
  fee: z.number(),
  at: z.iso.datetime(),
});
export type StatedFee = z.infer<typeof StatedFee>;

/**
 * Every capacity policy's stated fee, one per policy (the latest), for the table's Fee column and the
 * overview. A list, not an object keyed by id: a policy id such as `__proto__` stays plain data.
 */
export const StatedFees = z.array(StatedFee);
export type StatedFees = z.infer<typeof StatedFees>;
