/**
 * Every date and time the renderer shows, in the user's own locale and
 * timezone, and the few date sums the views need. Text that is not a date is
 * shown as it came (the service's answers are read tolerantly).
 */

const DAY_MS = 86_400_000;

const fullDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const weekdayDayMonth = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

function parsed(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** This instant as ISO 8601, for "loaded at" stamps. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** "12 Mar 2026" */
export function formatDate(iso: string): string {
  const date = parsed(iso);
  return date ? fullDate.format(date) : iso;
}

/** "12 Mar 2026, 14:05" */
export function formatDateTime(iso: string): string {
  const date = parsed(iso);
  return date ? dateTime.format(date) : iso;
}

const dateTimeUtc = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** "UTC+05:30", "UTC−03:00", "UTC": a fixed offset in hours, as people write it. */
export function offsetName(offsetHours: number): string {
  if (offsetHours === 0) return 'UTC';
  const minutes = Math.round(Math.abs(offsetHours) * 60);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `UTC${offsetHours < 0 ? '\u2212' : '+'}${hh}:${mm}`;
}

/**
 * "12 Mar 2026, 19:35" read at a fixed UTC offset (a search asks in one, and
 * its answers are read in it), whatever this computer's zone.
 */
export function formatDateTimeAtOffset(iso: string, offsetHours: number): string {
  const date = parsed(iso);
  return date ? dateTimeUtc.format(new Date(date.getTime() + offsetHours * 3_600_000)) : iso;
}

/** "14:05" */
export function formatTime(iso: string): string {
  const date = parsed(iso);
  return date ? time.format(date) : iso;
}

/** "Mar 4, 2026 – Apr 3, 2026" (the locale's own range style). */
export function formatWindow(startIso: string | undefined, endIso: string | undefined): string {
  const key = `${startIso ?? ''}|${endIso ?? ''}`;
  let text = windowTexts.get(key);
  if (text === undefined) {
    const start = startIso === undefined ? null : parsed(startIso);
    const end = endIso === undefined ? null : parsed(endIso);
    text = !start || !end ? `${startIso ? formatDate(startIso) : '—'} – ${endIso ? formatDate(endIso) : '—'}` : fullDate.formatRange(start, end);
    if (windowTexts.size >= WINDOW_TEXTS_KEPT) windowTexts.clear();
    windowTexts.set(key, text);
  }
  return text;
}

/**
 * Windows already put in words: formatRange was the costliest call of a
 * search keystroke's repaint (every row of the list shows one), and policies
 * share their windows.
 */
const windowTexts = new Map<string, string>();
const WINDOW_TEXTS_KEPT = 2_000;

/** Whole days between two instants, rounded. */
export function durationDays(startIso: string, endIso: string): number | null {
  const start = parsed(startIso);
  const end = parsed(endIso);
  if (!start || !end) return null;
  return Math.round((end.getTime() - start.getTime()) / DAY_MS);
}

/** "12 Mar" */
export function formatDayMonth(date: Date): string {
  return dayMonth.format(date);
}

/** "Thu, 12 Mar" */
export function formatWeekdayDay(date: Date): string {
  return weekdayDayMonth.format(date);
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

/**
 * "Nov 30, 2026, 9:00 AM EST", "Jul 1, 2026, 9:00 AM EDT": a date with the zone name it falls in.
 * One zone in a heading would be wrong for half the year's dates wherever clocks change.
 */
export function formatDateTimeWithZone(iso: string): string {
  const date = parsed(iso);
  return date ? `${dateTime.format(date)} ${localZoneName(date)}` : iso;
}

/** "12 minutes ago", "3 days ago": how old a copy is, in the user's language. */
export function formatAge(iso: string, now: Date = new Date()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'at an unknown time';
  const seconds = Math.round((then - now.getTime()) / 1000);
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(0, 'minute');
}

/** True when the copy is older than a day: the banner then says so more strongly. */
export function isStale(iso: string, now: Date = new Date()): boolean {
  return now.getTime() - Date.parse(iso) > DAY_MS;
}

/**
 * "2026-11-30T14:05": an instant as this computer's wall clock, without a zone,
 * which is how a spreadsheet keeps a date (exports write it so the file shows
 * what the screen showed); null when the text is not a date.
 */
export function localWallClock(iso: string | undefined): string | null {
  const date = iso === undefined ? null : parsed(iso);
  if (!date) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(date.getFullYear()).padStart(4, '0')}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** "2026-11-26": today on this computer's calendar, for dated file names. */
export function localDateStamp(at: Date = new Date()): string {
  return localWallClock(at.toISOString())?.slice(0, 10) ?? '';
}
