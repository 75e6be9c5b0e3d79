import { z } from 'zod';
import { CapacityRow } from '../api/readers.js';
import { Origin } from './sourced.js';
import { UnreadableCopy } from './offline.js';
import { WORKLIST_DEFAULT_HORIZON, WORKLIST_NOTE_MAX, WORKLIST_PAGE, WORKLIST_STATES } from './worklist-rules.js';
import { WorklistEntry, WorklistHorizon, WorklistState } from './worklist-entry.js';

/**
 * The renewal worklist: every policy launching or ending soon across all
 * customers, with the account manager's own state for each. The states are
 * the account manager's data (kept apart from the copy of the service's
 * policies, which a re-sync replaces); the policies come from the local copy.
 */

export * from './worklist-rules.js';
export { WorklistEntry, WorklistHorizon, WorklistState } from './worklist-entry.js';

/**
 * A change to one policy's entry: only the fields given change, the others
 * keep what is stored (a state chosen while a note is being saved must not
 * put the old state back, nor the note's save the old state).
 */
export const WorklistEntryInput = z
  .strictObject({
    cidrId: z.string().min(1).max(64),
    state: WorklistState.optional(),
    note: z.string().max(WORKLIST_NOTE_MAX).optional(),
    snoozedUntil: z.iso.date().nullable().optional(),
  })
  .refine((input) => input.state !== undefined || input.note !== undefined || input.snoozedUntil !== undefined, {
    message: 'Say what to change: a state, a note or a snooze date.',
  });
export type WorklistEntryInput = z.infer<typeof WorklistEntryInput>;

export const WorklistQuery = z.strictObject({
  horizonDays: WorklistHorizon.default(WORKLIST_DEFAULT_HORIZON),
  /** Only these states (none given: every state). */
  states: z.array(WorklistState).max(WORKLIST_STATES.length).default([]),
  /** Only this customer's policies (as the worklist names customers). */
  customer: z.string().max(500).nullable().default(null),
  /** Snoozed policies are left out unless asked for. */
  includeSnoozed: z.boolean().default(false),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(200),
  /**
   * The rows may come before the whole window is read: when it is not read yet, the answer holds the first rows of
   * the list in its order (final rows), with its total, counts and customers still counting (`stillCounting`), and
   * the view asks again without this for the whole answer. Reads for a selection or a bulk action never set it.
   */
  mayStillCount: z.boolean().default(false),
});
export type WorklistQuery = z.input<typeof WorklistQuery>;
export type ParsedWorklistQuery = z.output<typeof WorklistQuery>;

/**
 * What the Renewals view asks as it opens: its first page over the default horizon, every state and customer,
 * snoozed ones left out. The main process makes this answer ahead (after a refresh, after the launch's first
 * screen), so the first click is answered from memory.
 */
export const WORKLIST_OPENING: ParsedWorklistQuery = WorklistQuery.parse({ limit: WORKLIST_PAGE });

/** What brings a policy into the worklist: its launch or its end inside the horizon. */
export const WorklistMilestone = z.enum(['launch', 'end']);
export type WorklistMilestone = z.infer<typeof WorklistMilestone>;

export const WorklistRow = z.object({
  policy: CapacityRow,
  /** The customer the policy belongs to, as far as the app knows (null: not known). */
  customer: z.string().nullable(),
  /** The soonest of launch and end inside the horizon. */
  milestone: WorklistMilestone,
  entry: WorklistEntry.nullable(),
});
export type WorklistRow = z.infer<typeof WorklistRow>;

export const WorklistWindow = z.object({
  rows: z.array(WorklistRow),
  offset: z.number().int().min(0),
  /** Rows matching the filters, of which `rows` is a window. */
  total: z.number().int().min(0),
  /** Every customer in the horizon (before the customer and state filters), for the customer filter. */
  customers: z.array(z.string()),
  /** How many of the horizon's policies are in each state (before the state filter). */
  stateCounts: z.record(WorklistState, z.number().int().min(0)),
  /** Null when there is no local copy yet: the worklist answers from the copy only. */
  origin: Origin.nullable(),
  unreadable: UnreadableCopy.optional(),
  /**
   * True when the answer was made before the whole window was read (asked with `mayStillCount`): `rows` are the list's
   * first rows in its order, but `total`, `stateCounts` and `customers` count only the part read so far (at least
   * that many). Never given as final: the view says it is still counting and asks for the whole answer.
   */
  stillCounting: z.boolean().optional(),
});
export type WorklistWindow = z.infer<typeof WorklistWindow>;

/** A calendar (.ics) of the launches and ends within the horizon, for one customer or all. */
export const CalendarExportInput = z.strictObject({
  horizonDays: WorklistHorizon.default(90),
  customer: z.string().max(500).nullable().default(null),
  /** The customer's UTC offset in hours: each event says its time there (the events themselves are exact instants). */
  offsetHours: z.number().min(-18).max(18).multipleOf(0.25).default(0),
});
export type CalendarExportInput = z.input<typeof CalendarExportInput>;
