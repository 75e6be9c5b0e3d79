import { BrowserWindow, shell, type WebContents } from 'electron';
import { APP_START_URL, isAllowedExternalUrl, isAppUrl } from '../services/security/origins.js';
import { secureWebPreferences } from './web-preferences.js';

export function createMainWindow(preloadPath: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Capacity Desk',
    backgroundColor: '#111418',
    webPreferences: secureWebPreferences(preloadPath),
  });
  lockDownContents(window.webContents);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_START_URL);
  return window;
}

/** No navigation away from the app, no new windows, external links only to the allowlist. */
export function lockDownContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
