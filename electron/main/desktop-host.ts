import { app } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { aboutPanel } from '../services/desktop/about.js';
import { APP_NAME } from '../services/desktop/app-identity.js';
import type { DesktopHost } from '../services/desktop/host.js';
import { sandboxState } from '../services/desktop/sandbox-state.js';
import { electronNotifier } from './notifier.js';
import { electronUpdaterPort } from './updater.js';

/**
 * The app icon as a file, for the window (Linux), notifications and the About
 * panel: shipped beside app.asar (extraResources), or build/ in a source run.
 */
export function appIconPath(): string | undefined {
  const candidate = app.isPackaged ? join(process.resourcesPath, 'icon.png') : join(app.getAppPath(), 'build', 'icon.png');
  return existsSync(candidate) ? candidate : undefined;
}

/** What the desktop app offers the services: electron-updater and OS notifications. */
export function electronDesktopHost(focusApp: () => void, icon: string | undefined): DesktopHost {
  const updates = electronUpdaterPort();
  const notifier = electronNotifier(focusApp, icon);
  return {
    kind: 'electron',
    appName: APP_NAME,
    version: app.getVersion(),
    versions: { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node },
    updater: updates.updater,
    updatesUnavailableReason: updates.reason ?? '',
    updateInstaller: updates.installer,
    notifier,
    notificationsUnavailableReason: notifier ? '' : 'This system does not support notifications.',
    sandbox: sandboxState(process.argv, process.env),
  };
}

export function applyAboutPanel(icon: string | undefined): void {
  app.setAboutPanelOptions(
    aboutPanel({
      name: APP_NAME,
      version: app.getVersion(),
      electron: process.versions.electron,
      chrome: process.versions.chrome,
      node: process.versions.node,
      year: new Date().getFullYear(),
      ...(icon ? { iconPath: icon } : {}),
    }),
  );
}
