import { z } from 'zod';
import { PolicyRef } from './models.js';
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
