import { CapacityPolicy } from '../../shared/api/capacity.js';
import { OFFERING_STATUSES } from '../../shared/api/contract-choices.js';
import { parseWireDate, toEpochDay } from '../../shared/format/dates.js';
import type { CapacityRow, OfferingRow } from '../../shared/api/readers.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** An interval of instants, in milliseconds. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The window a search asked for (its dates as sent, MM/dd/yyyy), as instants:
 * from the start of its first day to the end of its last, both read at the
 * search's UTC offset.
 */
export function requestedSpan(startDate: string, endDate: string, offsetHours: number): Span | null {
  const first = parseWireDate(startDate);
  const last = parseWireDate(endDate);
  if (!first || !last) return null;
  return {
    start: toEpochDay(first) * DAY_MS - offsetHours * HOUR_MS,
    end: (toEpochDay(last) + 1) * DAY_MS - offsetHours * HOUR_MS,
  };
}

/** An offering's run, or null when the service left a time out or sent one that is not a time. */
export function offeringSpan(offering: OfferingRow): Span | null {
  const start = Date.parse(offering.startDateTime ?? '');
  const end = Date.parse(offering.endDateTime ?? '');
  return Number.isNaN(start) || Number.isNaN(end) || end < start ? null : { start, end };
}

/** Every day of the offering's run is free: the only kind a whole policy can be said to fit. */
const WHOLLY_AVAILABLE = OFFERING_STATUSES[0];

/**
 * The ready policies that fit an offering: the offering is free on every day
 * of its run, and the policy's whole run, from launch to end, lies inside it
 * (the instance type, platform and zone were matched by the list they come
 * from).
 */
export function policiesFitting(offering: OfferingRow, policies: readonly CapacityRow[]): CapacityRow[] {
  const span = offeringSpan(offering);
  if (!span || offering.status !== WHOLLY_AVAILABLE) return [];
  return policies.filter((policy) => {
    const launch = Date.parse(policy.capacityConfiguration?.launchDateTime ?? '');
    const end = Date.parse(policy.capacityConfiguration?.endDateTime ?? '');
    return !Number.isNaN(launch) && !Number.isNaN(end) && launch >= span.start && end <= span.end;
  });
}

/**
 * How a ready policy's window sits in the offerings of a search (of its own
 * type, platform and zone): `fits` inside one wholly free run; `partly` over
 * offered time that is not wholly free around it; `not-free` on none of it.
 * null when the policy's window cannot be read.
 */
export type WindowFit = 'fits' | 'partly' | 'not-free';

export function windowFit(policy: CapacityRow, offerings: readonly OfferingRow[]): WindowFit | null {
  const launch = Date.parse(policy.capacityConfiguration?.launchDateTime ?? '');
  const end = Date.parse(policy.capacityConfiguration?.endDateTime ?? '');
  if (Number.isNaN(launch) || Number.isNaN(end)) return null;
  if (offerings.some((offering) => policiesFitting(offering, [policy]).length > 0)) return 'fits';
  const overlapsOffered = offerings.some((offering) => {
    const span = offeringSpan(offering);
    return span !== null && offering.status !== OFFERING_STATUSES[2] && span.start < end && span.end > launch;
  });
  return overlapsOffered ? 'partly' : 'not-free';
}

/** The fit in words, said beside the policy and again before its purchase. */
export const WINDOW_FIT_WORDS: Readonly<Record<WindowFit, string>> = {
  fits: 'Fits a free run of your search',
  partly: 'Partly available: its window is not wholly inside a free run of your search',
  'not-free': 'Not available: no free run of your search covers its window',
};

/** A purchase reads the whole record: a row the service sent in part is opened, never bought from a list. */
export function purchasable(policy: CapacityRow): CapacityPolicy | null {
  const parsed = CapacityPolicy.safeParse(policy);
  return parsed.success ? parsed.data : null;
}
