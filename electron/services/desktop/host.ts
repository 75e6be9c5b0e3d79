import type { NotifierPort } from './policy-notifier.js';
import type { Scheduler } from './scheduler.js';
import type { UpdaterPort } from './update-controller.js';

/**
 * What the host that carries the app can do on the desktop. The Electron
 * shell passes its updater and notifier; the browser host has neither, and
 * the app says so instead of pretending.
 */
export interface DesktopHost {
  readonly kind: 'electron' | 'browser';
  readonly appName: string;
  readonly version: string;
  readonly versions: Readonly<Record<string, string>>;
  readonly updater: UpdaterPort | null;
  /** Shown in place of the update status when `updater` is null. */
  readonly updatesUnavailableReason: string;
  readonly notifier: NotifierPort | null;
  readonly notificationsUnavailableReason: string;
  /** Tests step time by hand; the app uses the system clock. */
  readonly scheduler?: Scheduler;
}

export const BROWSER_HOST_UPDATES =
  'The browser host runs the copy in this folder and does not update itself; installed desktop copies update automatically.';
export const BROWSER_HOST_NOTIFICATIONS = 'OS notifications need the desktop app; the browser host cannot show them.';

export function browserDesktopHost(version: string): DesktopHost {
  return {
    kind: 'browser',
    appName: 'Capacity Desk',
    version,
    versions: { node: process.versions.node },
    updater: null,
    updatesUnavailableReason: BROWSER_HOST_UPDATES,
    notifier: null,
    notificationsUnavailableReason: BROWSER_HOST_NOTIFICATIONS,
  };
}
