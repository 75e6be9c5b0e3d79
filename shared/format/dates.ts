/** Pure date helpers shared by the forms, the client and the sandbox. */

export interface CalendarDate {
  readonly year: number;
  readonly month: number; // 1..12
  readonly day: number; // 1..31
}

const WIRE_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** Parses `MM/dd/yyyy`; null unless it names a real calendar date. */
export function parseWireDate(text: string): CalendarDate | null {
  const match = WIRE_DATE.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  const day = Number(match[2]);
  const year = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || year < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function formatWireDate(date: CalendarDate): string {
  return `${pad(date.month)}/${pad(date.day)}/${String(date.year).padStart(4, '0')}`;
}

/** `yyyy-MM-dd` (what an <input type=date> holds) to `MM/dd/yyyy`; null when invalid. */
export function isoDateToWire(iso: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return null;
  const date = parseWireDate(`${match[2]}/${match[3]}/${match[1]}`);
  return date ? formatWireDate(date) : null;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whole days from a to b (b - a), on the calendar. */
export function daysBetween(a: CalendarDate, b: CalendarDate): number {
  return Math.round((toEpochDay(b) - toEpochDay(a)));
}

export function toEpochDay(date: CalendarDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / 86_400_000;
}

/**
 * The instant a local calendar date starts, for a client whose clock is
 * `utcOffsetHours` ahead of UTC.
 */
export function startOfLocalDay(date: CalendarDate, utcOffsetHours: number): Date {
  return new Date(Date.UTC(date.year, date.month - 1, date.day) - utcOffsetHours * 3_600_000);
}

/** ISO 8601 with an explicit offset, e.g. 2026-12-01T00:00:00+02:00. */
export function toOffsetIso(instant: Date, utcOffsetHours: number): string {
  const shifted = new Date(instant.getTime() + utcOffsetHours * 3_600_000);
  const sign = utcOffsetHours < 0 ? '-' : '+';
  const abs = Math.abs(utcOffsetHours);
  const hours = Math.trunc(abs);
  const minutes = Math.round((abs - hours) * 60);
  return `${shifted.toISOString().slice(0, 19)}${sign}${pad(hours)}:${pad(minutes)}`;
}

/** The error envelope's timestamp: UTC, milliseconds, no offset. */
export function envelopeTimestamp(now: Date): string {
  return now.toISOString().slice(0, 23);
}

/**
 * Hours east of UTC for the local zone of `at` (what a client sends as clientUtcOffset). In UTC itself this is 0,
 * never -0: a choice of offsets bound to -0 showed none chosen (Svelte compares with Object.is).
 */
export function localUtcOffsetHours(at: Date): number {
  return -at.getTimezoneOffset() / 60 || 0;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
