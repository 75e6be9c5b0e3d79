import type { AppCommand, AppInfo } from '../../../shared/ipc/desktop.js';
import type { AppEvents } from '../events.js';
import { PreferencesStore } from '../preferences/preferences-store.js';
import type { UnreadableReporter } from '../settings/json-file.js';
import type { DesktopHost } from './host.js';
import { NotificationLedger } from './notification-ledger.js';
import type { PolicyDates } from './policy-alerts.js';
import { PolicyNotifier } from './policy-notifier.js';
import { systemScheduler } from './scheduler.js';
import { UpdateController } from './update-controller.js';

export interface DesktopServicesDeps {
  readonly host: DesktopHost;
  readonly dataDir: string;
  readonly events: AppEvents;
  readonly signedIn: () => boolean;
  /** The capacity policies whose dates the notifications watch. */
  readonly loadPolicies: () => Promise<readonly PolicyDates[]>;
  readonly report: (where: string, error: unknown) => void;
  /** Told about a preferences or ledger file that could not be read (and was kept aside). */
  readonly onUnreadable?: UnreadableReporter;
}

export interface DesktopServices {
  readonly preferences: PreferencesStore;
  readonly updates: UpdateController;
  readonly notifier: PolicyNotifier | null;
  appInfo(): AppInfo;
  /** Asks the renderer to do something (the menu, a notification click). */
  command(command: AppCommand): void;
  start(): void;
  stop(): void;
}

/** Preferences, auto-update and policy notifications, wired to whatever the host provides. */
export async function createDesktopServices(deps: DesktopServicesDeps): Promise<DesktopServices> {
  const { host, events } = deps;
  const scheduler = host.scheduler ?? systemScheduler;
  const preferences = new PreferencesStore(deps.dataDir, deps.onUnreadable);
  await preferences.load();

  const updates = new UpdateController({
    updater: host.updater,
    unavailableReason: host.updatesUnavailableReason,
    automatic: () => preferences.current.autoUpdate,
    scheduler,
    onChange: (state) => events.emit('updates.changed', state),
    ...(host.updateInstaller ? { installer: host.updateInstaller } : {}),
  });

  const command = (appCommand: AppCommand) => events.emit('app.command', appCommand);
  let notifier: PolicyNotifier | null = null;
  if (host.notifier) {
    const ledger = new NotificationLedger(deps.dataDir, deps.onUnreadable);
    await ledger.load();
    notifier = new PolicyNotifier({
      notifier: host.notifier,
      enabled: () => preferences.current.notifyPolicyDates,
      signedIn: deps.signedIn,
      loadPolicies: deps.loadPolicies,
      ledger,
      scheduler,
      onActivate: command,
      report: (error) => deps.report('policy notifications', error),
    });
  }

  const unsubscribes: Array<() => void> = [];
  return {
    preferences,
    updates,
    notifier,
    command,
    appInfo: () => ({
      name: host.appName,
      version: host.version,
      host: host.kind,
      platform: process.platform,
      versions: { ...host.versions },
      updates: host.updater ? { available: true } : { available: false, reason: host.updatesUnavailableReason },
      notifications: host.notifier ? { available: true } : { available: false, reason: host.notificationsUnavailableReason },
      sandbox: { ...host.sandbox },
    }),
    start() {
      if (unsubscribes.length > 0) return;
      unsubscribes.push(
        preferences.subscribe(() => {
          updates.preferenceChanged();
          notifier?.refresh();
        }),
        events.subscribe((event) => {
          if (event === 'session.changed') notifier?.refresh();
        }),
      );
      updates.start();
      notifier?.start();
    },
    stop() {
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
      updates.stop();
      notifier?.stop();
    },
  };
}
