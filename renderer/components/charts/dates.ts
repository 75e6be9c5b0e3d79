/** Date words for charts and lists, in the user's own locale and timezone. */

const DAY_MS = 86_400_000;

const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const weekdayDayMonth = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const fullDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "12 Mar" */
export function formatDayMonth(date: Date): string {
  return dayMonth.format(date);
}

/** "Thu, 12 Mar" */
export function formatWeekdayDay(date: Date): string {
  return weekdayDayMonth.format(date);
}

/** "12 Mar 2026", or the text as it came when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : fullDate.format(date);
}

/** "today", "tomorrow", "in 5 days", "3 days ago": calendar days in the local timezone. */
export function relativeDays(iso: string, fromMs: number): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return relative.format(localDayNumber(ms) - localDayNumber(fromMs), 'day');
}

function localDayNumber(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY_MS;
}

/** The start of day `day` of a chart whose day 0 starts at `asOf`. */
export function dayStart(asOf: string, day: number): Date {
  return new Date(Date.parse(asOf) + day * DAY_MS);
}

/** The local timezone's short name, e.g. "CET" or "GMT+1", for column headers. */
export function localZoneName(at: Date = new Date()): string {
  const part = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}
