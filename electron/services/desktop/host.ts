import type { HostFeature } from '../../../shared/ipc/desktop.js';
import type { NotifierPort } from './policy-notifier.js';
import type { Scheduler } from './scheduler.js';
import type { UpdaterPort } from './update-controller.js';
import type { UpdateInstaller } from './update-availability.js';

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
  /** Who installs an update: the app, or (deb/rpm) the package manager. Default 'app'. */
  readonly updateInstaller?: UpdateInstaller;
  /** Shown in place of the update status when `updater` is null. */
  readonly updatesUnavailableReason: string;
  readonly notifier: NotifierPort | null;
  readonly notificationsUnavailableReason: string;
  /** Chromium's sandbox in this run (sandbox-state.ts). */
  readonly sandbox: HostFeature;
  /** Tests step time by hand; the app uses the system clock. */
  readonly scheduler?: Scheduler;
}

export const BROWSER_HOST_UPDATES =
  'The browser host runs the copy in this folder and does not update itself; installed desktop copies update automatically.';
export const BROWSER_HOST_NOTIFICATIONS = 'OS notifications need the desktop app; the browser host cannot show them.';

export const BROWSER_HOST_SANDBOX = 'The browser host shows the app in your browser, under that browser\'s own sandbox.';

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
    sandbox: { available: false, reason: BROWSER_HOST_SANDBOX },
  };
}
