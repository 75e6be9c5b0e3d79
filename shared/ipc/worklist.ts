import { z } from 'zod';
import { CapacityRow } from '../api/readers.js';
import { Origin } from './sourced.js';
import { UnreadableCopy } from './offline.js';

/**
 * The renewal worklist: every policy launching or ending soon across all
 * customers, with the account manager's own state for each. The states are
 * the account manager's data (kept apart from the copy of the service's
 * policies, which a re-sync replaces); the policies come from the local copy.
 */

/** How far ahead the worklist looks, in days. */
export const WORKLIST_HORIZONS = [7, 30, 60, 90] as const;
export const WorklistHorizon = z.union(WORKLIST_HORIZONS.map((days) => z.literal(days)));
export type WorklistHorizon = z.infer<typeof WorklistHorizon>;

/** Where the account manager is with a policy; a policy nobody touched yet is "to do". */
export const WORKLIST_STATES = ['to-do', 'contacted', 'renewing', 'letting-go', 'handled'] as const;
export const WorklistState = z.enum(WORKLIST_STATES);
export type WorklistState = z.infer<typeof WorklistState>;

export const WORKLIST_STATE_LABELS: Readonly<Record<WorklistState, string>> = {
  'to-do': 'To do',
  contacted: 'Contacted',
  renewing: 'Renewing',
  'letting-go': 'Letting go',
  handled: 'Handled',
};

export const WORKLIST_NOTE_MAX = 2_000;

/** Rows the worklist view asks for at a time as they come into view: a screenful and then some, so the first ones paint soon. */
export const WORKLIST_PAGE = 100;

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

/** The calendar day of an instant on this computer (YYYY-MM-DD), as snooze dates are picked. */
export function localDay(instant: Date | number): string {
  const at = typeof instant === 'number' ? new Date(instant) : instant;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * Whether the worklist as filtered leaves out a policy with this entry: snoozed until a later day while snoozed
 * ones are not asked for, or in a state not asked for (none asked: every state). The main process reads the
 * list by it, and the view drops a row its new entry takes out of the list from the selection by it.
 */
export function snoozedOut(entry: Pick<WorklistEntry, 'snoozedUntil'> | undefined, includeSnoozed: boolean, today: string): boolean {
  return !includeSnoozed && entry?.snoozedUntil != null && entry.snoozedUntil > today;
}

export function stateOutside(state: WorklistState, wanted: readonly WorklistState[]): boolean {
  return wanted.length > 0 && !wanted.includes(state);
}

/** What a policy shows before anyone changed its entry. */
export const UNTOUCHED_ENTRY: Omit<WorklistEntry, 'updatedAt'> = { state: 'to-do', note: '', snoozedUntil: null };

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
  horizonDays: WorklistHorizon.default(30),
  /** Only these states (none given: every state). */
  states: z.array(WorklistState).max(WORKLIST_STATES.length).default([]),
  /** Only this customer's policies (as the worklist names customers). */
  customer: z.string().max(500).nullable().default(null),
  /** Snoozed policies are left out unless asked for. */
  includeSnoozed: z.boolean().default(false),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(200),
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
