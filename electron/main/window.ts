import { BrowserWindow, shell, type WebContents } from 'electron';
import { MAIN_WINDOW_LIMITS } from '../services/desktop/app-identity.js';
import type { Placement } from '../services/desktop/window-placement.js';
import { APP_START_URL, isAllowedExternalUrl, isAppUrl } from '../services/security/origins.js';
import { secureWebPreferences } from './web-preferences.js';

const DEFAULT_PLACEMENT: Placement = {
  width: MAIN_WINDOW_LIMITS.defaultWidth,
  height: MAIN_WINDOW_LIMITS.defaultHeight,
  maximized: false,
  fullScreen: false,
};

/** The main window, opened where placeWindow() said (the remembered place, checked against the displays). */
export function createMainWindow(preloadPath: string, placement: Placement = DEFAULT_PLACEMENT, icon?: string): BrowserWindow {
  // electronegativity-accept CONTEXT_ISOLATION_JS_CHECK: webPreferences come from secureWebPreferences() (contextIsolation: true), asserted by test/unit/security/web-preferences.test.ts and the _electron suite.
  // electronegativity-accept SANDBOX_JS_CHECK: sandbox: true is set by secureWebPreferences(), asserted by the same tests.
  // electronegativity-accept AUXCLICK_JS_CHECK: secureWebPreferences() sets disableBlinkFeatures: 'Auxclick'.
  const window = new BrowserWindow({
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : {}),
    width: placement.width,
    height: placement.height,
    minWidth: MAIN_WINDOW_LIMITS.minWidth,
    minHeight: MAIN_WINDOW_LIMITS.minHeight,
    show: false,
    title: 'Capacity Desk',
    backgroundColor: '#111418',
    ...(icon ? { icon } : {}),
    webPreferences: secureWebPreferences(preloadPath),
  });
  lockDownContents(window.webContents);
  window.once('ready-to-show', () => {
    if (placement.maximized) window.maximize();
    if (placement.fullScreen) window.setFullScreen(true);
    window.show();
  });
  void window.loadURL(APP_START_URL);
  return window;
}

const lockedDown = new WeakSet<WebContents>();

/**
 * No navigation away from the app, no new windows, external links only to the
 * allowlist. Applied to every webContents the app ever creates (main.ts's
 * 'web-contents-created' guard), not only the main window's.
 */
export function lockDownContents(contents: WebContents): void {
  if (lockedDown.has(contents)) return;
  lockedDown.add(contents);
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // electronegativity-accept OPEN_EXTERNAL_JS_CHECK: only https URLs to an allowlisted host, checked after URL parsing by isAllowedExternalUrl (test/unit/security).
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
