/**
 * Renewal reminders: computed from the local copy with a controlled clock,
 * given once per policy, milestone and lead time (the ledger is the account
 * manager's own data), shown as one OS notification digest that opens the
 * worklist; the service is not asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { ReminderDigest } from '../../shared/ipc/reminders.js';
import { z } from 'zod';
import { RenewalReminders, dueReminders, reminderDigest } from '../../electron/services/worklist/renewal-reminders.js';
import { ReminderRounds, REMINDER_FIRST_DELAY_MS } from '../../electron/services/worklist/reminder-rounds.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const DAY_MS = 86_400_000;

let app: FastApp;
let policy: CapacityRow;
let endMs: number;
let now = new Date();
let reminders: RenewalReminders;

async function givenFor(cidrId: string): Promise<string[]> {
  const ledger = await app.services.ownData.records('reminder', z.object({ at: z.string() }));
  return (await ledger.list()).map((record) => record.id).filter((id) => id.startsWith(`end:${cidrId}:`)).sort();
}

beforeAll(async () => {
  app = await startFastApp({ secrets: new FixedSecretStore() });
  value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
  value(await app.call('offline.sync'));
  const active = value<{ rows: CapacityRow[] }>(await app.call('capacity.list', { status: 'ACTIVE', limit: 500 })).rows;
  const later = active.find((row) => Date.parse(row.capacityConfiguration?.endDateTime ?? '') > Date.now() + 40 * DAY_MS);
  if (!later) throw new Error('the seed has no active policy ending in more than 40 days');
  policy = later;
  endMs = Date.parse(policy.capacityConfiguration?.endDateTime ?? '');
  reminders = new RenewalReminders({ replica: app.services.replica, ownData: app.services.ownData, leadDays: () => [30, 7, 1], now: () => now });
  // Offline: every request to the service is dropped; reminders come from the copy alone.
  await app.controls.addFault({ dropRate: 1 });
});

afterAll(async () => {
  await app?.close();
});

describe('renewal reminders with a controlled clock', () => {
  it('fire once per lead time, from the local copy, offline', async () => {
    await app.controls.resetStats();
    now = new Date(endMs - 31 * DAY_MS);
    await reminders.take();
    expect(await givenFor(policy.cidrId)).toEqual([]);

    now = new Date(endMs - 29 * DAY_MS);
    const first = await reminders.take();
    expect(first?.body).toMatch(/within 30 days/);
    expect(await givenFor(policy.cidrId)).toHaveLength(1);
    // The same moment again: nothing new to say.
    expect(await reminders.take()).toBeNull();
    // Two windows asking at once get one digest between them.
    now = new Date(endMs - 6 * DAY_MS);
    const both = await Promise.all([reminders.take(), reminders.take()]);
    expect(both.filter((digest) => digest !== null)).toHaveLength(1);
    expect(await givenFor(policy.cidrId)).toHaveLength(2);
    expect(await reminders.take()).toBeNull();

    now = new Date(endMs - 12 * 3_600_000);
    expect((await reminders.take())?.body).toMatch(/within 1 day/);
    const keys = await givenFor(policy.cidrId);
    expect(keys.map((key) => key.split(':').pop())).toEqual(['1', '30', '7']);
    expect(await reminders.take()).toBeNull();

    const stats = await app.controls.stats();
    expect(Object.values(stats).reduce((sum, count) => sum + count, 0)).toBe(0);
  });

  it('the desktop app shows the digest as one OS notification that opens the worklist', async () => {
    const shown: Array<{ title: string; body: string; click: () => void }> = [];
    let clicked = 0;
    const timers: Array<() => void> = [];
    // A lead time not used before: the test policy's end is a new reminder at 2 days.
    const twoDays = new RenewalReminders({ replica: app.services.replica, ownData: app.services.ownData, leadDays: () => [2], now: () => now });
    const rounds = new ReminderRounds({
      reminders: twoDays,
      notifier: { show: (content, onClick) => shown.push({ ...content, click: onClick }) },
      scheduler: { now: () => now, after: (_ms, task) => (timers.push(task), () => undefined), every: () => () => undefined },
      onActivate: () => (clicked += 1),
      events: app.services.events,
      logger: { warn: () => undefined },
    });
    rounds.start();
    expect(REMINDER_FIRST_DELAY_MS).toBeGreaterThan(0);
    now = new Date(endMs - 1.5 * DAY_MS);
    for (const task of timers.splice(0)) task();
    await expect.poll(() => shown.length).toBe(1);
    expect(shown[0]?.title).toMatch(/^Renewals: \d+ polic(y needs|ies need) attention$/);
    expect(shown[0]?.body).toMatch(/within 2 days\. Open the renewal worklist\.$/);
    expect(await givenFor(policy.cidrId)).toContain(`end:${policy.cidrId}:${new Date(endMs).toISOString()}:2`);
    // The next round has nothing new: no second notification.
    expect(await rounds.round()).toBe(false);
    expect(shown).toHaveLength(1);
    shown[0]?.click();
    expect(clicked).toBe(1);
    await rounds.stop();
  });
});

describe('dueReminders', () => {
  const base = Date.UTC(2026, 10, 26);
  const upcoming = [{ rid: 1, cidrId: 'sc_1', policyStatus: 'ACTIVE', launchMs: base - 10 * DAY_MS, endMs: base + 5 * DAY_MS, account: null }];

  it('a policy first seen 5 days before its end is reminded once (7), and 30 is never given after', () => {
    const due = dueReminders(upcoming, [30, 7, 1], base, new Set());
    expect(due.map((reminder) => reminder.leadDays)).toEqual([7]);
    expect(due[0]?.keys).toHaveLength(2);
    expect(dueReminders(upcoming, [30, 7, 1], base, new Set(due[0]?.keys))).toEqual([]);
    expect(reminderDigest(due)).toEqual<ReminderDigest>({
      title: 'Renewals: 1 policy needs attention',
      body: '1 policy ends within 7 days. Open the renewal worklist.',
      count: 1,
    });
  });

  it('no lead times, no reminders; a finished policy is never reminded of', () => {
    expect(dueReminders(upcoming, [], base, new Set())).toEqual([]);
    expect(dueReminders([{ ...upcoming[0]!, policyStatus: 'CANCELED' }], [30], base, new Set())).toEqual([]);
  });
});
