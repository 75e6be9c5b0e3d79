import type { RenewalFrequency } from '../../shared/api/capacity.js';
import { formatDate } from './dates.js';

/** The end of one more renewal period after `endIso`, as the frequency reads (a month is a calendar month). */
export function renewedUntil(endIso: string, frequency: RenewalFrequency): Date | null {
  const end = new Date(endIso);
  if (Number.isNaN(end.getTime())) return null;
  const next = new Date(end);
  if (frequency === 'ONE_MONTH') next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCDate(next.getUTCDate() + (frequency === 'ONE_WEEK' ? 7 : 14));
  return next;
}

/** What the next renewal will be after a change: "Renews on Dec 30, 2026 for a month, to Jan 30, 2027" or "Ends on …, not renewed". */
export function nextRenewalText(endIso: string | undefined, change: { readonly enabled: true; readonly frequency: RenewalFrequency } | { readonly enabled: false }): string {
  if (!endIso) return 'End date not known';
  if (!change.enabled) return `Ends on ${formatDate(endIso)}, not renewed`;
  const until = renewedUntil(endIso, change.frequency);
  const period = change.frequency === 'ONE_WEEK' ? 'a week' : change.frequency === 'TWO_WEEKS' ? 'two weeks' : 'a month';
  return until ? `Renews on ${formatDate(endIso)} for ${period}, to ${formatDate(until.toISOString())}` : 'End date not known';
}
