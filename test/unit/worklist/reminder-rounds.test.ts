import { expect, it } from 'vitest';
import { AppEvents } from '../../../electron/services/events.js';
import { ReminderRounds, REMINDER_FIRST_DELAY_MS } from '../../../electron/services/worklist/reminder-rounds.js';
import type { ReminderDigest } from '../../../shared/ipc/reminders.js';
import { ManualScheduler } from '../desktop/manual-scheduler.js';

/**
 * The app's close stops the reminder rounds (AppServices.close): a round under way records the reminders it
 * gives in the own data, so close must not go on (closing the own data) before it has ended, and it shows nothing after.
 */
it('stopped while a round reads its reminders: stop waits for the round, which shows nothing, and no round starts after', async () => {
  const scheduler = new ManualScheduler();
  const shown: string[] = [];
  let takes = 0;
  let answer: (digest: ReminderDigest | null) => void = () => undefined;
  const rounds = new ReminderRounds({
    reminders: {
      take: () => {
        takes += 1;
        return new Promise((resolve) => (answer = resolve));
      },
    },
    notifier: { show: (content) => shown.push(content.title) },
    scheduler,
    onActivate: () => undefined,
    events: new AppEvents(),
    logger: { warn: () => undefined },
  });
  rounds.start();
  scheduler.advance(REMINDER_FIRST_DELAY_MS);
  expect(takes).toBe(1);

  let stopped = false;
  const stopping = Promise.resolve(rounds.stop()).then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(stopped).toBe(false);
  answer({ title: 'Renewals: 1 policy needs attention', body: 'Ends within 7 days.', count: 1 });
  await stopping;
  expect(shown).toEqual([]);
  scheduler.advance(24 * 60 * 60_000);
  expect(takes).toBe(1);
  expect(await rounds.round()).toBe(false);
  expect(takes).toBe(1);
});
