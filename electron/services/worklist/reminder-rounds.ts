import type { AppEvents } from '../events.js';
import type { Logger } from '../logging/file-logger.js';
import type { NotifierPort } from '../desktop/policy-notifier.js';
import type { Cancel, Scheduler } from '../desktop/scheduler.js';
import type { RenewalReminders } from './renewal-reminders.js';

/** How often the desktop app looks for reminders due, and how soon after a sign-in. */
export const REMINDER_INTERVAL_MS = 30 * 60_000;
export const REMINDER_FIRST_DELAY_MS = 20_000;

export interface ReminderRoundsDeps {
  readonly reminders: Pick<RenewalReminders, 'take'>;
  readonly notifier: NotifierPort;
  readonly scheduler: Scheduler;
  /** A click on the digest: bring the app forward on the worklist. */
  readonly onActivate: () => void;
  readonly events: AppEvents;
  readonly logger: Pick<Logger, 'warn'>;
}

/**
 * In the desktop app, the main process shows the renewal digest as an OS
 * notification: soon after each sign-in and every half hour. (The browser
 * host's page asks for the same digest and shows it itself.)
 */
export class ReminderRounds {
  #cancels: Cancel[] = [];
  /** Set by stop: a round under way shows nothing after it. */
  #stopped = false;
  /** The rounds under way: stop waits for them (each records the reminders it gives in the own data). */
  readonly #rounds = new Set<Promise<boolean>>();

  constructor(private readonly deps: ReminderRoundsDeps) {}

  start(): void {
    if (this.#cancels.length > 0 || this.#stopped) return;
    const { scheduler, events } = this.deps;
    this.#cancels.push(
      scheduler.every(REMINDER_INTERVAL_MS, () => void this.round()),
      events.subscribe((event) => {
        if (event === 'session.changed') this.#cancels.push(scheduler.after(REMINDER_FIRST_DELAY_MS, () => void this.round()));
      }),
      scheduler.after(REMINDER_FIRST_DELAY_MS, () => void this.round()),
    );
  }

  /** One look; resolves to whether a notification was shown. Never throws. */
  round(): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(false);
    const round = this.#round().finally(() => this.#rounds.delete(round));
    this.#rounds.add(round);
    return round;
  }

  async #round(): Promise<boolean> {
    try {
      const digest = await this.deps.reminders.take();
      if (!digest || this.#stopped) return false;
      this.deps.notifier.show({ title: digest.title, body: digest.body }, this.deps.onActivate);
      return true;
    } catch (error) {
      // Signed out, or no copy yet: nothing to remind of.
      this.deps.logger.warn('reminders', 'no renewal reminders this round', error);
      return false;
    }
  }

  /** No round starts from now on; resolves once the rounds under way have ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const cancel of this.#cancels.splice(0)) cancel();
    await Promise.all(this.#rounds);
  }
}
