import { z } from 'zod';
import type { ReminderDigest } from '../../../shared/ipc/reminders.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { upcomingCapacities } from '../replica/replica-reads.js';
import type { OwnDataService } from '../own-data/own-data-service.js';
import type { UpcomingCapacity } from './replica-upcoming.js';

const DAY_MS = 86_400_000;

export type ReminderMilestone = 'launch' | 'end';

/** A reminder due now: a policy's launch or end has come within one of the lead times. */
export interface DueReminder {
  readonly cidrId: string;
  readonly milestone: ReminderMilestone;
  readonly at: number;
  /** The shortest lead time reached: the one this reminder is for. */
  readonly leadDays: number;
  /** Ledger keys of every lead time reached, so none of them is given later. */
  readonly keys: readonly string[];
}

/** One reminder per policy, milestone (with its date: a moved date is a new one) and lead time. */
export function reminderKey(milestone: ReminderMilestone, cidrId: string, atMs: number, leadDays: number): string {
  return `${milestone}:${cidrId}:${new Date(atMs).toISOString()}:${leadDays}`;
}

/**
 * The reminders due at `nowMs`: for each launch of a ready or active policy
 * and each end of an active one still ahead, the shortest lead time it has
 * come within, unless that one was given already. A policy first seen five
 * days before its end, with lead times 30 and 7, is reminded once (7), not
 * twice.
 */
export function dueReminders(upcoming: readonly UpcomingCapacity[], leadDays: readonly number[], nowMs: number, given: ReadonlySet<string>): DueReminder[] {
  const due: DueReminder[] = [];
  for (const policy of upcoming) {
    const milestones: Array<[ReminderMilestone, number | null]> = [
      ['launch', policy.policyStatus === 'READY_FOR_PURCHASE' || policy.policyStatus === 'ACTIVE' ? policy.launchMs : null],
      ['end', policy.policyStatus === 'ACTIVE' ? policy.endMs : null],
    ];
    for (const [milestone, at] of milestones) {
      if (at === null || at <= nowMs) continue;
      const reached = leadDays.filter((days) => at - nowMs <= days * DAY_MS);
      if (reached.length === 0) continue;
      const shortest = Math.min(...reached);
      const keys = reached.map((days) => reminderKey(milestone, policy.cidrId, at, days));
      if (given.has(reminderKey(milestone, policy.cidrId, at, shortest))) continue;
      due.push({ cidrId: policy.cidrId, milestone, at, leadDays: shortest, keys });
    }
  }
  return due.sort((a, b) => a.at - b.at || a.cidrId.localeCompare(b.cidrId));
}

/** The reminders as one notification: "2 policies end within 7 days; 1 launches within 30 days." */
export function reminderDigest(due: readonly DueReminder[]): ReminderDigest | null {
  if (due.length === 0) return null;
  const groups = new Map<string, { milestone: ReminderMilestone; leadDays: number; count: number }>();
  for (const reminder of due) {
    const id = `${reminder.milestone}:${reminder.leadDays}`;
    const group = groups.get(id) ?? { milestone: reminder.milestone, leadDays: reminder.leadDays, count: 0 };
    group.count += 1;
    groups.set(id, group);
  }
  const parts = [...groups.values()]
    .sort((a, b) => a.leadDays - b.leadDays || a.milestone.localeCompare(b.milestone))
    .map(({ milestone, leadDays, count }) => {
      const verb = milestone === 'end' ? (count === 1 ? 'ends' : 'end') : count === 1 ? 'launches' : 'launch';
      return `${count} ${count === 1 ? 'policy' : 'policies'} ${verb} within ${leadDays === 1 ? '1 day' : `${leadDays} days`}`;
    });
  const title = due.length === 1 ? 'Renewals: 1 policy needs attention' : `Renewals: ${due.length} policies need attention`;
  return { title, body: `${parts.join('; ')}. Open the renewal worklist.`, count: due.length };
}

/** What the ledger keeps per reminder given: the moment it is about, so it can be forgotten once past. */
const GivenReminder = z.object({ at: z.iso.datetime() });

export interface RenewalRemindersDeps {
  readonly replica: Pick<CurrentReplica, 'readWithHealth'>;
  readonly ownData: Pick<OwnDataService, 'records'>;
  /** The lead times set in Preferences (days); none is off. */
  readonly leadDays: () => readonly number[];
  readonly now: () => Date;
}

/**
 * Renewal reminders from the local copy (so they come offline too), each
 * given once: the ledger of given reminders is the account manager's own
 * data, kept across restarts, and rounds never overlap (two windows asking at
 * once get one digest between them).
 */
export class RenewalReminders {
  #round: Promise<ReminderDigest | null> = Promise.resolve(null);

  constructor(private readonly deps: RenewalRemindersDeps) {}

  /** Resolves once the rounds asked for so far have ended (the app closes: each records what it gave). */
  async settled(): Promise<void> {
    await this.#round.catch(() => null);
  }

  /** The digest of the reminders due now, recorded as given; null when none is due. */
  take(): Promise<ReminderDigest | null> {
    const round = this.#round.catch(() => null).then(() => this.#take());
    this.#round = round;
    return round;
  }

  async #take(): Promise<ReminderDigest | null> {
    const leadDays = this.deps.leadDays();
    if (leadDays.length === 0) return null;
    const nowMs = this.deps.now().getTime();
    const { answer } = await this.deps.replica.readWithHealth((replica) => upcomingCapacities(replica, nowMs, nowMs + Math.max(...leadDays) * DAY_MS, () => []));
    if (!answer) return null;
    const ledger = await this.deps.ownData.records('reminder', GivenReminder);
    const kept = await ledger.list();
    const due = dueReminders(answer.upcoming, leadDays, nowMs, new Set(kept.map((record) => record.id)));
    for (const reminder of due) {
      for (const key of reminder.keys) await ledger.put(key, { at: new Date(reminder.at).toISOString() });
    }
    // Reminders about moments now past can never be due again.
    for (const record of kept) if (Date.parse(record.body.at) <= nowMs) await ledger.delete(record.id);
    return reminderDigest(due);
  }
}
