/**
 * Reading and writing a day typed by a person: in their locale's order of
 * day, month and year, or as YYYY-MM-DD, with a message that says what is
 * wrong with an impossible day. Values are calendar days as YYYY-MM-DD: no
 * zone enters, so a day read here is the day a form sends in its own offset.
 */
import { daysInMonth } from '../../shared/format/dates.js';

/** The years a date entry accepts: policies and their searches live within them (a typo of 262027 is refused). */
export const DATE_ENTRY_YEARS = { min: 2000, max: 2099 } as const;

export interface YearBounds {
  readonly min: number;
  readonly max: number;
}

type DatePart = 'year' | 'month' | 'day';

export interface DateEntryFormat {
  /** The locale's order of the three parts, e.g. month, day, year. */
  readonly order: readonly DatePart[];
  /** The shape people are shown, e.g. "MM/DD/YYYY" or "DD.MM.YYYY". */
  readonly pattern: string;
  /** A day as the locale writes it with two-digit day and month and the full year. */
  readonly write: (iso: string) => string;
}

export type DateEntryReading = { readonly kind: 'empty' } | { readonly kind: 'day'; readonly iso: string } | { readonly kind: 'problem'; readonly message: string };

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const PATTERN_OF: Readonly<Record<DatePart, string>> = { year: 'YYYY', month: 'MM', day: 'DD' };
/** What may stand between the numbers: the separators locales use, spaces, and the direction marks some insert. */
const ENTRY_TEXT = /^[\d\s./\-,\u200e\u200f\u061c]+$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The entry format of a locale (this computer's when none is named), always in the Gregorian calendar with Latin digits. */
export function dateEntryFormat(locale?: string): DateEntryFormat {
  const formatter = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC', calendar: 'gregory', numberingSystem: 'latn' });
  const parts = formatter.formatToParts(new Date(Date.UTC(2026, 10, 26)));
  const order = parts.filter((p): p is Intl.DateTimeFormatPart & { type: DatePart } => p.type === 'year' || p.type === 'month' || p.type === 'day').map((p) => p.type);
  const complete = order.length === 3 && new Set(order).size === 3;
  const pattern = parts.map((p) => (p.type === 'literal' ? p.value.replace(/[\u200e\u200f\u061c]/g, '') : p.type in PATTERN_OF ? PATTERN_OF[p.type as DatePart] : '')).join('').trim();
  return complete
    ? { order, pattern, write: (iso) => (dayOf(iso) ? formatter.format(new Date(`${iso}T00:00:00Z`)) : '') }
    : { order: ['year', 'month', 'day'], pattern: 'YYYY-MM-DD', write: (iso) => (dayOf(iso) ? iso : '') };
}

/** The day a YYYY-MM-DD names, or null when it names none. */
function dayOf(iso: string): { year: number; month: number; day: number } | null {
  const match = ISO_DAY.exec(iso);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) ? { year, month, day } : null;
}

function isoOf(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * What a person typed, read as a day: in the locale's order, or year first
 * (YYYY-MM-DD) whenever the first number has four digits.
 */
export function readDateEntry(text: string, format: DateEntryFormat, years: YearBounds = DATE_ENTRY_YEARS): DateEntryReading {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const example = format.write('2026-12-01');
  const howTo = `Write the date as ${format.pattern} (e.g. ${example}) or YYYY-MM-DD.`;
  if (trimmed.length > 40 || !ENTRY_TEXT.test(trimmed)) return { kind: 'problem', message: howTo };
  const groups = trimmed.split(/\D+/).filter(Boolean);
  if (groups.length !== 3) return { kind: 'problem', message: howTo };
  const order: readonly DatePart[] = groups[0]!.length === 4 ? ['year', 'month', 'day'] : format.order;
  const at = (part: DatePart) => groups[order.indexOf(part)]!;
  if (at('year').length !== 4) return { kind: 'problem', message: `Write the year with four digits, e.g. ${example}.` };
  if (at('month').length > 2 || at('day').length > 2) return { kind: 'problem', message: howTo };
  const [year, month, day] = [Number(at('year')), Number(at('month')), Number(at('day'))];
  if (year < years.min || year > years.max) return { kind: 'problem', message: `Choose a year from ${years.min} to ${years.max}.` };
  if (month < 1 || month > 12) return { kind: 'problem', message: `There is no month ${month}: months go from 1 to 12.` };
  const length = daysInMonth(year, month);
  if (day < 1 || day > length) return { kind: 'problem', message: `There is no day ${day} in ${MONTHS[month - 1]} ${year}: it has ${length} days.` };
  return { kind: 'day', iso: isoOf(year, month, day) };
}

/** The day `days` after (or before) a day, kept within the years. */
export function stepDays(iso: string, days: number, years: YearBounds = DATE_ENTRY_YEARS): string {
  const day = dayOf(iso);
  if (!day) return iso;
  const moved = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return clampToYears(isoOf(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate()), years);
}

/** The same day `months` later (or earlier); the month's last day where it is shorter (31 January, +1: 28 or 29 February). */
export function stepMonths(iso: string, months: number, years: YearBounds = DATE_ENTRY_YEARS): string {
  const day = dayOf(iso);
  if (!day) return iso;
  const index = day.year * 12 + (day.month - 1) + months;
  const [year, month] = [Math.floor(index / 12), (index % 12) + 1];
  return clampToYears(isoOf(year, month, Math.min(day.day, daysInMonth(year, month))), years);
}

function clampToYears(iso: string, years: YearBounds): string {
  const first = isoOf(years.min, 1, 1);
  const last = isoOf(years.max, 12, 31);
  return iso < first ? first : iso > last ? last : iso;
}
