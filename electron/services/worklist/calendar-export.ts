import type { EventAttributes } from 'ics';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { toOffsetIso } from '../../../shared/format/dates.js';
import { frequencyLabel } from '../../../shared/format/renewal-frequency.js';
import { CalendarExportInput } from '../../../shared/ipc/worklist.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { upcomingCapacities } from '../replica/replica-reads.js';
import { noCustomers, type CustomerNamer } from './customer-of.js';

const DAY_MS = 86_400_000;
/** A launch or an end is a moment; a calendar shows it as a short event. */
const EVENT_MINUTES = 30;

export interface CalendarExportDeps {
  readonly replica: Pick<CurrentReplica, 'readWithHealth'>;
  readonly customerOf?: CustomerNamer;
  readonly now?: () => Date;
}

/**
 * The launches and ends of the local copy's policies within the horizon as an
 * iCalendar file (written by the `ics` package). Each event is an exact UTC
 * instant, so every calendar places it right in its own zone; its title and
 * description give the time at the customer's offset, as it is said to them.
 */
export async function calendarOfMilestones(
  input: CalendarExportInput,
  deps: CalendarExportDeps,
): Promise<{ content: string; events: number; window: { readonly from: string; readonly to: string } }> {
  const { horizonDays, customer, offsetHours } = CalendarExportInput.parse(input);
  const customerOf = await (deps.customerOf ?? noCustomers)();
  const fromMs = (deps.now?.() ?? new Date()).getTime();
  const toMs = fromMs + horizonDays * DAY_MS;
  // The window's days at the customer's offset: what a file name says of it.
  const window = { from: toOffsetIso(new Date(fromMs), offsetHours).slice(0, 10), to: toOffsetIso(new Date(toMs), offsetHours).slice(0, 10) };
  const customers = new Map<string, string | null>();
  const { answer, unreadable } = await deps.replica.readWithHealth((replica) =>
    upcomingCapacities(replica, fromMs, toMs, (upcoming) =>
      upcoming.flatMap((policy) => {
        const named = customerOf({ account: policy.account });
        customers.set(policy.cidrId, named);
        return customer === null || named === customer ? [policy.rid] : [];
      }),
    ),
  );
  if (unreadable || !answer) {
    throw new AppFailure({ kind: 'not-found', message: 'The calendar is made from the local copy, and there is no readable copy on this computer yet.' });
  }
  const events = answer.picked.flatMap((policy) => eventsOf(policy, customers.get(policy.cidrId) ?? null, fromMs, toMs, offsetHours));
  if (events.length === 0) return { content: emptyCalendar(), events: 0, window };
  // Loaded with the first calendar, not with the app (~0.1-0.2 s of a launch's module loading, issue 25).
  const { createEvents } = await import('ics');
  const { error, value } = createEvents(events, { productId: '-//Capacity Desk//Renewals//EN', calName: 'Capacity Desk: launches and ends' });
  if (error || !value) throw new AppFailure({ kind: 'internal', message: 'The calendar could not be written.' });
  return { content: value, events: events.length, window };
}

function eventsOf(policy: CapacityRow, customer: string | null, fromMs: number, toMs: number, offsetHours: number): EventAttributes[] {
  const config = policy.capacityConfiguration;
  const name = policy.policyName ?? policy.cidrId;
  const active = policy.policyStatus === 'ACTIVE';
  const milestones: Array<['launch' | 'end', string | undefined, boolean]> = [
    ['launch', config?.launchDateTime, active || policy.policyStatus === 'READY_FOR_PURCHASE'],
    ['end', config?.endDateTime, active],
  ];
  return milestones.flatMap(([milestone, at, applies]) => {
    const ms = Date.parse(at ?? '');
    if (!applies || Number.isNaN(ms) || ms <= fromMs || ms > toMs) return [];
    const local = toOffsetIso(new Date(ms), offsetHours);
    const when = `${local.slice(0, 10)} ${local.slice(11, 16)} (UTC${local.slice(19)})`;
    const verb = milestone === 'launch' ? 'Launches' : 'Ends';
    // In words, as the app says it: the contract's code (TWO_WEEKS) means nothing to a customer reading the event.
    const renewal = config?.autoRenewalEnabled ? `auto-renewal on (${frequencyLabel(config.frequency ?? null).toLowerCase()})` : 'auto-renewal off';
    return [
      {
        uid: `${milestone}-${policy.cidrId}@capacity-desk`,
        start: ms,
        startInputType: 'utc',
        startOutputType: 'utc',
        duration: { minutes: EVENT_MINUTES },
        title: `${verb}: ${name} (${policy.cidrId}) at ${when}`,
        description: [
          `${verb} ${when}.`,
          `Customer: ${customer ?? 'not known'}.`,
          `${policy.policyInstance?.qty ?? '?'} x ${policy.policyInstance?.instanceType ?? 'instance type not known'} in ${policy.cspRegion?.availabilityZoneId ?? 'zone not known'}; ${renewal}.`,
        ].join('\n'),
        categories: ['Capacity Desk', milestone === 'launch' ? 'Launch' : 'End'],
      } satisfies EventAttributes,
    ];
  });
}

/** `ics` refuses an empty list; an empty calendar is still a valid answer. */
function emptyCalendar(): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Capacity Desk//Renewals//EN', 'X-WR-CALNAME:Capacity Desk: launches and ends', 'END:VCALENDAR', ''].join('\r\n');
}
