import type { WorklistEntry, WorklistHorizon, WorklistState } from './worklist-entry.js';

/*
 * The worklist's states, horizons and the rules the view and the main process share, in a module of their own
 * (re-exported by worklist.ts): the Renewals store is evaluated with the page's first code, and importing
 * worklist.ts for these built the schemas of the copy's rows, of the service's policies and of the answers' origins
 * before the overview could mount (issue 25, branch overview12). Their schemas are worklist-entry.ts's, which the
 * first code does not evaluate either (overview16): this module makes none.
 */

export type { WorklistEntry, WorklistHorizon, WorklistState };

/** How far ahead the worklist looks, in days. */
export const WORKLIST_HORIZONS = [7, 30, 60, 90] as const;
/** The horizon the worklist opens on (the query's default). */
export const WORKLIST_DEFAULT_HORIZON: WorklistHorizon = 30;

/** Where the account manager is with a policy; a policy nobody touched yet is "to do". */
export const WORKLIST_STATES = ['to-do', 'contacted', 'renewing', 'letting-go', 'handled'] as const;

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
