import { app } from 'electron';
import electronUpdater from 'electron-updater';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { UpdaterEvent } from '../services/desktop/update-state.js';
import { updateInstaller, updatesUnavailableReason, type UpdateInstaller } from '../services/desktop/update-availability.js';
import type { UpdaterPort } from '../services/desktop/update-controller.js';

/**
 * electron-updater behind the UpdaterPort: the controller in the services
 * decides when to check and download, so electron-updater's own automatic
 * download is off. Null, with the reason, where this copy cannot update.
 */
export function electronUpdaterPort(): { updater: UpdaterPort; reason: null; installer: UpdateInstaller } | { updater: null; reason: string; installer: UpdateInstaller } {
  const facts = {
    isPackaged: app.isPackaged,
    platform: process.platform,
    hasUpdateFeed: existsSync(join(process.resourcesPath, 'app-update.yml')),
    appImage: Boolean(process.env.APPIMAGE),
    linuxPackage: existsSync(join(process.resourcesPath, 'package-type')),
    disabledByEnv: process.env.CAPACITY_DESK_DISABLE_UPDATES === '1',
  };
  const reason = updatesUnavailableReason(facts);
  const installer = updateInstaller(facts);
  if (reason !== null) return { updater: null, reason, installer };

  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = false;
  autoUpdater.allowPrerelease = false;
  // deb/rpm: never install at quit (electron-updater would run pkexec for a root password).
  if (installer === 'package-manager') autoUpdater.autoInstallOnAppQuit = false;
  return {
    reason: null,
    installer,
    updater: {
      check: async () => {
        await autoUpdater.checkForUpdates();
      },
      download: async () => {
        await autoUpdater.downloadUpdate();
      },
      quitAndInstall: () => autoUpdater.quitAndInstall(),
      setInstallOnQuit: (enabled) => {
        autoUpdater.autoInstallOnAppQuit = enabled;
      },
      subscribe: (listener: (event: UpdaterEvent) => void) => {
        const checking = () => listener({ type: 'checking' });
        const available = (info: { version: string }) => listener({ type: 'available', version: info.version });
        const notAvailable = () => listener({ type: 'not-available' });
        const progress = (info: { percent: number }) => listener({ type: 'progress', percent: info.percent });
        const downloaded = (info: { version: string }) => listener({ type: 'downloaded', version: info.version });
        const failed = (error: Error) => listener({ type: 'error', message: error.message });
        autoUpdater.on('checking-for-update', checking);
        autoUpdater.on('update-available', available);
        autoUpdater.on('update-not-available', notAvailable);
        autoUpdater.on('download-progress', progress);
        autoUpdater.on('update-downloaded', downloaded);
        autoUpdater.on('error', failed);
        return () => {
          autoUpdater.off('checking-for-update', checking);
          autoUpdater.off('update-available', available);
          autoUpdater.off('update-not-available', notAvailable);
          autoUpdater.off('download-progress', progress);
          autoUpdater.off('update-downloaded', downloaded);
          autoUpdater.off('error', failed);
        };
      },
    },
  };
}
