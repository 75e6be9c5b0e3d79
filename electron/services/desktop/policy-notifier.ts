import type { AppCommand } from '../../../shared/ipc/desktop.js';
import { dueAlerts, notificationsFor, type PolicyDates } from './policy-alerts.js';
import type { Cancel, Scheduler } from './scheduler.js';

/** Shows one OS notification; Electron's Notification in the desktop app. */
export interface NotifierPort {
  show(content: { readonly title: string; readonly body: string }, onClick: () => void): void;
}

export interface AlertLedger {
  keys(): ReadonlySet<string>;
  record(alerts: ReadonlyArray<{ key: string; at: Date }>, now: Date): Promise<void>;
}

export interface PolicyNotifierDeps {
  readonly notifier: NotifierPort;
  /** The person's opt-in (Preferences > notifications). */
  readonly enabled: () => boolean;
  readonly signedIn: () => boolean;
  readonly loadPolicies: () => Promise<readonly PolicyDates[]>;
  readonly ledger: AlertLedger;
  readonly scheduler: Scheduler;
  /** A click on a notification: bring the app forward and open what it is about. */
  readonly onActivate: (command: AppCommand) => void;
  readonly report: (error: unknown) => void;
}

/** How often policies are looked at, and how soon after sign-in or opt-in. */
export const CHECK_INTERVAL_MS = 30 * 60_000;
export const FIRST_CHECK_DELAY_MS = 15_000;

/**
 * Notifies about capacity policies launching or ending soon: only when the
 * person opted in and is signed in, each alert once (across restarts too),
 * and never in a burst (more than a few become one summary).
 */
export class PolicyNotifier {
  #interval: Cancel | null = null;
  #soon: Cancel | null = null;
  #running: Promise<number> | null = null;

  constructor(private readonly deps: PolicyNotifierDeps) {}

  start(): void {
    this.#interval ??= this.deps.scheduler.every(CHECK_INTERVAL_MS, () => void this.check());
    this.refresh();
  }

  /** The opt-in or the session changed: look soon if notifications now apply. */
  refresh(): void {
    this.#soon?.();
    this.#soon = null;
    if (!this.#active()) return;
    this.#soon = this.deps.scheduler.after(FIRST_CHECK_DELAY_MS, () => {
      this.#soon = null;
      void this.check();
    });
  }

  /** One round; resolves to the number of notifications shown. Never throws. */
  check(): Promise<number> {
    this.#running ??= this.#round().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  stop(): void {
    this.#interval?.();
    this.#soon?.();
    this.#interval = this.#soon = null;
  }

  #active(): boolean {
    return this.deps.enabled() && this.deps.signedIn();
  }

  async #round(): Promise<number> {
    if (!this.#active()) return 0;
    try {
      const policies = await this.deps.loadPolicies();
      // The person may have opted out or signed out while the list loaded.
      if (!this.#active()) return 0;
      const now = this.deps.scheduler.now();
      const alerts = dueAlerts(policies, now, this.deps.ledger.keys());
      const notifications = notificationsFor(alerts, now);
      for (const notification of notifications) {
        this.deps.notifier.show(notification, () => this.deps.onActivate(notification.command));
      }
      if (alerts.length > 0) await this.deps.ledger.record(alerts, now);
      return notifications.length;
    } catch (error) {
      this.deps.report(error);
      return 0;
    }
  }
}
