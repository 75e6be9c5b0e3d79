import { SearchQuery, type AvailabilityOffering } from '../../shared/api/capacity.js';
import { MESSAGE, OFFERING_STATUSES } from '../../shared/api/contract-choices.js';
import {
  formatWireDate,
  parseWireDate,
  startOfLocalDay,
  toEpochDay,
  toOffsetIso,
  type CalendarDate,
} from '../../shared/format/dates.js';
import type { Handler } from '../context.js';
import { parseQuery } from '../http/body.js';
import { ApiError } from '../http/envelope.js';
import { json } from '../http/reply.js';
import { dayAvailable, findSupported } from '../seed/catalog.js';

const [AVAILABLE_ALL, AVAILABLE_PARTIAL, NOT_AVAILABLE] = OFFERING_STATUSES;
const DAY_MS = 86_400_000;
/** Enough runs to choose from without flooding the list. */
const MAX_RUNS = 5;

export const searchCapacity: Handler = (req) => {
  const query = parseQuery(req.query, SearchQuery);
  if (!findSupported(query.instanceType, query.platform))
    throw new ApiError(404, MESSAGE.unsupportedInstance(query.instanceType, query.platform));
  // The schema has already checked both dates.
  const start = parseWireDate(query.startDate) as CalendarDate;
  const end = parseWireDate(query.endDate) as CalendarDate;
  return json(200, offerings(query.instanceType, query.platform, query.availabilityZone, start, end, query.clientUtcOffset));
};

/**
 * The whole window first (all, part or none of its days free), then, when only
 * part is free, the free runs of days, each bookable as a whole.
 */
export function offerings(
  instanceType: string,
  platform: string,
  zone: string,
  start: CalendarDate,
  end: CalendarDate,
  utcOffset: number,
): AvailabilityOffering[] {
  const firstDay = toEpochDay(start);
  const lastDay = toEpochDay(end);
  const runs: [number, number][] = [];
  let free = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    if (!dayAvailable(instanceType, platform, zone, day)) continue;
    free++;
    const run = runs[runs.length - 1];
    if (run && run[1] === day - 1) run[1] = day;
    else runs.push([day, day]);
  }
  const total = lastDay - firstDay + 1;
  const status = free === total ? AVAILABLE_ALL : free === 0 ? NOT_AVAILABLE : AVAILABLE_PARTIAL;
  const offer = (from: number, to: number, offerStatus: string): AvailabilityOffering => {
    const fromDate = dayToDate(from);
    const toDate = dayToDate(to);
    return {
      title: `${instanceType} (${platform}) in ${zone}, ${formatWireDate(fromDate)} to ${formatWireDate(toDate)}`,
      status: offerStatus,
      startDateTime: toOffsetIso(startOfLocalDay(fromDate, utcOffset), utcOffset),
      // The last second of the local end day.
      endDateTime: toOffsetIso(new Date(startOfLocalDay(toDate, utcOffset).getTime() + DAY_MS - 1000), utcOffset),
    };
  };
  const list = [offer(firstDay, lastDay, status)];
  if (status === AVAILABLE_PARTIAL) for (const [from, to] of runs.slice(0, MAX_RUNS)) list.push(offer(from, to, AVAILABLE_ALL));
  return list;
}

function dayToDate(epochDay: number): CalendarDate {
  const date = new Date(epochDay * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
