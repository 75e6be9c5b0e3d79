import type { PolicyInstance } from '../../shared/api/capacity.js';
import type { RENEWAL_FREQUENCIES } from '../../shared/api/contract-choices.js';

/** Display helpers for capacity policies, in the user's own locale and timezone. */

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function parsed(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(iso: string): string {
  const date = parsed(iso);
  return date ? dateFormat.format(date) : iso;
}

export function formatDateTimeLocal(iso: string): string {
  const date = parsed(iso);
  return date ? dateTimeFormat.format(date) : iso;
}

/** "Mar 4, 2026 – Apr 3, 2026" (the locale's own range style). */
export function formatWindow(startIso: string | undefined, endIso: string | undefined): string {
  const start = startIso === undefined ? null : parsed(startIso);
  const end = endIso === undefined ? null : parsed(endIso);
  if (!start || !end) return `${startIso ? formatDate(startIso) : '—'} – ${endIso ? formatDate(endIso) : '—'}`;
  return dateFormat.formatRange(start, end);
}

/** Whole days between two instants, rounded. */
export function durationDays(startIso: string, endIso: string): number | null {
  const start = parsed(startIso);
  const end = parsed(endIso);
  if (!start || !end) return null;
  return Math.round((end.getTime() - start.getTime()) / 86_400_000);
}

export function formatDays(days: number | null): string {
  if (days === null) return '—';
  return days === 1 ? '1 day' : `${days} days`;
}

/** "m5.large × 4" */
export function instanceSummary(instance: Partial<Pick<PolicyInstance, 'instanceType' | 'qty'>>): string {
  return `${instance.instanceType ?? '—'} × ${instance.qty ?? '—'}`;
}

type Frequency = (typeof RENEWAL_FREQUENCIES)[number];

export const FREQUENCY_LABELS: Readonly<Record<Frequency, string>> = {
  ONE_WEEK: 'Every week',
  TWO_WEEKS: 'Every two weeks',
  ONE_MONTH: 'Every month',
};

/** A frequency as words; an unknown value as it came. */
export function frequencyLabel(frequency: string | null): string {
  if (frequency === null) return 'No frequency set';
  return Object.hasOwn(FREQUENCY_LABELS, frequency) ? FREQUENCY_LABELS[frequency as Frequency] : frequency;
}

export function autoRenewalSummary(enabled: boolean, frequency: string | null): string {
  return enabled ? `On · ${frequencyLabel(frequency)}` : 'Off';
}

const SHORT_FREQUENCY: Readonly<Record<Frequency, string>> = {
  ONE_WEEK: 'Weekly',
  TWO_WEEKS: 'Every 2 weeks',
  ONE_MONTH: 'Monthly',
};

/** "Weekly" / "Off": short enough for a table cell (an unknown frequency as it came). */
export function autoRenewalShort(enabled: boolean, frequency: string | null): string {
  if (!enabled) return 'Off';
  if (frequency === null) return 'On';
  return Object.hasOwn(SHORT_FREQUENCY, frequency) ? SHORT_FREQUENCY[frequency as Frequency] : frequency;
}

/** This instant as ISO 8601, for "loaded at" stamps. */
export function nowIso(): string {
  return new Date().toISOString();
}
