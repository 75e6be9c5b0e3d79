import { z } from 'zod';
import { WORKLIST_HORIZONS, WORKLIST_NOTE_MAX, WORKLIST_STATES } from './worklist-rules.js';

/*
 * The worklist's schemas (re-exported by worklist.ts), apart from its rules: the page's first code evaluates the
 * rules with the Renewals store, and made these (two ISO formats' patterns among them) before the overview could
 * mount (issue 25, branch overview16).
 */

export const WorklistHorizon = z.union(WORKLIST_HORIZONS.map((days) => z.literal(days)));
export type WorklistHorizon = z.infer<typeof WorklistHorizon>;

export const WorklistState = z.enum(WORKLIST_STATES);
export type WorklistState = z.infer<typeof WorklistState>;

/** The account manager's own record for one policy. */
export const WorklistEntry = z.object({
  state: WorklistState,
  note: z.string().max(WORKLIST_NOTE_MAX),
  /** A calendar day (YYYY-MM-DD): the policy stays out of the worklist until that day begins. */
  snoozedUntil: z.iso.date().nullable(),
  /** When the entry was last changed (ISO instant). */
  updatedAt: z.iso.datetime(),
});
export type WorklistEntry = z.infer<typeof WorklistEntry>;
