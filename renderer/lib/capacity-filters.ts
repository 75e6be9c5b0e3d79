import { z } from 'zod';
import type { CapacityFilters } from '../../shared/ipc/offline.js';
import { daysInMonth } from '../../shared/format/dates.js';
import { onFirstUse } from './first-use.js';

/** The capacity list's filters beside the status, as typed (kept with the list and in saved views); made at its first use. */
export const FilterForm = onFirstUse(() =>
  z.object({
    account: z.string().max(200).catch(''),
    instanceType: z.string().max(100).catch(''),
    availabilityZone: z.string().max(100).catch(''),
    /** Launch on or after this day (YYYY-MM-DD, this computer's calendar). */
    launchFrom: z.string().max(10).catch(''),
    /** Launch on or before this day. */
    launchTo: z.string().max(10).catch(''),
    /** 'running': only the active policies launched by now (or with no launch known); absent in views saved before. */
    running: z.enum(['', 'running']).catch(''),
  }),
);
export type FilterForm = z.infer<ReturnType<typeof FilterForm>>;

export const NO_FILTERS: FilterForm = { account: '', instanceType: '', availabilityZone: '', launchFrom: '', launchTo: '', running: '' };

export type FilterProblem = { readonly field: 'launchFrom' | 'launchTo'; readonly message: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight starting a day on this computer's calendar, or null when the text is not a real day. */
export function localDayStart(text: string): number | null {
  const parts = DAY.exec(text.trim());
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return new Date(year, month - 1, day).getTime();
}

/**
 * The filters as the main process reads them, or what is wrong with a date, in words. `runningAtMs`: the instant
 * "running" is judged at (the list keeps the one its filters were set at, so its pages and selection agree).
 */
export function queryFilters(form: FilterForm, runningAtMs: number = Date.now()): { ok: true; filters: CapacityFilters | undefined } | { ok: false; problem: FilterProblem } {
  const filters: { -readonly [K in keyof CapacityFilters]: CapacityFilters[K] } = {};
  if (form.account.trim()) filters.account = form.account.trim();
  if (form.instanceType.trim()) filters.instanceType = form.instanceType.trim();
  if (form.availabilityZone.trim()) filters.availabilityZone = form.availabilityZone.trim();
  if (form.launchFrom.trim()) {
    const from = localDayStart(form.launchFrom);
    if (from === null) return { ok: false, problem: { field: 'launchFrom', message: 'Write the first day as YYYY-MM-DD, e.g. 2026-12-01.' } };
    filters.launchFromMs = from;
  }
  if (form.launchTo.trim()) {
    const to = localDayStart(form.launchTo);
    if (to === null) return { ok: false, problem: { field: 'launchTo', message: 'Write the last day as YYYY-MM-DD, e.g. 2026-12-31.' } };
    // The whole last day: up to the next day's midnight (a day of 23 or 25 hours included).
    const parts = form.launchTo.trim().split('-').map(Number) as [number, number, number];
    filters.launchToMs = new Date(parts[0], parts[1] - 1, parts[2] + 1).getTime();
    if (filters.launchFromMs !== undefined && filters.launchToMs <= filters.launchFromMs) {
      return { ok: false, problem: { field: 'launchTo', message: 'The last day comes before the first day.' } };
    }
  }
  if (form.running === 'running') filters.runningAtMs = runningAtMs;
  return { ok: true, filters: Object.keys(filters).length > 0 ? filters : undefined };
}

export function hasFilters(form: FilterForm): boolean {
  return Object.values(form).some((value) => value.trim() !== '');
}
