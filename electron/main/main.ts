import { isPermissionGranted } from '../services/security/permissions.js';
import { app, BrowserWindow, session, shell } from 'electron';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { createAppServices, type AppServices } from '../services/app-services.js';
import { AppEvents } from '../services/events.js';
import { deferredHandlers } from '../services/ipc/deferred-handlers.js';
import { FileLogger } from '../services/logging/file-logger.js';
import { Redactor } from '../services/logging/redact.js';
import { QuitSequence } from '../services/desktop/quit-sequence.js';
import { sandboxState } from '../services/desktop/sandbox-state.js';
import type { UnreadableReporter } from '../services/settings/json-file.js';
import { startCrashReporter, watchFaults } from './faults.js';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import { PageLoading } from '../services/overview/page-loading.js';
import { registerContract } from './ipc-bridge.js';
import { electronSaveFileHost } from './save-dialog.js';
import { appMenuTemplate, type MenuAction } from '../services/desktop/app-menu.js';
import { APP_ID, APP_NAME } from '../services/desktop/app-identity.js';
import { SingleInstance } from '../services/desktop/single-instance.js';
import { appIconPath, applyAboutPanel, electronDesktopHost } from './desktop-host.js';
import { MainWindows } from './main-windows.js';
import { installApplicationMenu } from './menu.js';
import { applySpellcheckPolicy } from './context-menu.js';
import { reportStartFailure } from './recovery.js';
import { electronSafeStorage } from './safe-storage.js';
import { armSmokeLaunch } from './smoke-launch.js';
import { electronNetFetch } from './net-fetch.js';
import { lockDownContents } from './window.js';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '..', 'renderer');
const preloadPath = join(here, 'preload.cjs');

// Tests and portable installs point the data folder elsewhere.
if (process.env.CAPACITY_DESK_DATA_DIR) app.setPath('userData', process.env.CAPACITY_DESK_DATA_DIR);
// Logs where each OS keeps them: ~/Library/Logs/Capacity Desk on macOS, userData/logs on Windows and
// Linux; a data folder chosen by a test or a portable install keeps its logs with it.
if (process.env.CAPACITY_DESK_DATA_DIR) app.setAppLogsPath(resolve(process.env.CAPACITY_DESK_DATA_DIR, 'logs'));
else app.setAppLogsPath();
const logsDir = app.getPath('logs');
const crashDumpsDir = startCrashReporter(logsDir);
// Windows ties notifications and taskbar grouping to this id (the installer's shortcuts carry it too).
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

// One copy per data folder (the lock lives there): a second launch focuses the first and quits.
const instance = new SingleInstance(app);
const primary = instance.claim();
if (primary) registerAppScheme();
if (primary) armSmokeLaunch();
// Every webContents the app ever creates gets the main window's guards, not only the main window.
if (primary) app.on('web-contents-created', (_event, contents) => lockDownContents(contents));

let services: AppServices | null = null;
let windows: MainWindows | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  // Everything is refused except what isPermissionGranted allows (clipboard writes from the app itself).
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details.requestingUrl)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin),
  );
  // Made before the services: the window's page is asked for while they start (the launch's overview count beside it).
  const pageLoading = new PageLoading();
  serveRenderer(rendererDir, pageLoading);
  applySpellcheckPolicy(session.defaultSession);
  const icon = appIconPath();
  applyAboutPanel(icon);
  const dataDir = app.getPath('userData');
  const events = new AppEvents();
  const redactor = new Redactor();
  const logger = new FileLogger({ dir: logsDir, redactor });
  watchFaults(logger, logsDir, crashDumpsDir);
  // Shown to the person too (app.info's sandbox, in Preferences); here so support sees it in the log.
  const sandbox = sandboxState(process.argv, process.env);
  if (!sandbox.available) logger.warn('startup', sandbox.reason ?? "Chromium's sandbox is off");
  // The window opens at once; the services (the keychain probe can take 5 s on a Linux desktop without one) start beside it,
  // and the page's first calls wait for them.
  const starting = createAppServices({
    dataDir,
    startSandbox: builtInSandbox(),
    logsDir,
    logger,
    redactor,
    events,
    // The OS proxy settings (manual, PAC, WPAD), as Chromium resolves them for each base URL.
    resolveProxy: (url) => session.defaultSession.resolveProxy(url),
    // Chromium's network stack, for proxies that want the computer sign-in (NTLM, Negotiate, Kerberos) or SOCKS.
    netFetch: electronNetFetch,
    safeStorage: electronSafeStorage(),
    saveFile: electronSaveFileHost,
    desktop: electronDesktopHost(() => windows?.focus(), icon),
    pageLoading,
  });
  const handlersReady = starting.then((ready) => ready.handlers);
  // A failed start is reported once, by start()'s own catch; the waiting calls still fail with it.
  handlersReady.catch(() => undefined);
  registerContract(
    deferredHandlers(handlersReady),
    (channel, error) => logger.error('ipc', `${channel} failed`, error),
    (line) => logger.warn('ipc', line),
  );
  // The window state is read before the services exist: what it finds unreadable is reported once they do.
  const early: Array<Parameters<UnreadableReporter>[0]> = [];
  const onUnreadable: UnreadableReporter = (event) => (services ? services.unreadableFiles.report(event) : early.push(event));
  windows = new MainWindows({ preloadPath, dataDir, icon, instance, events, logger, logsDir, onUnreadable });
  await windows.open();
  services = await starting;
  for (const event of early.splice(0)) services.unreadableFiles.report(event);
  installApplicationMenu(
    appMenuTemplate({
      platform: process.platform,
      appName: APP_NAME,
      devTools: !app.isPackaged,
      updatesAvailable: services.desktop.appInfo().updates.available,
    }),
    onMenuAction,
  );
}

/** Menu entries the renderer carries out (navigation, dialogs) go to it as app.command events. */
function onMenuAction(action: MenuAction): void {
  if (!services) return;
  if (action.kind === 'check-updates') {
    void services.desktop.updates.check();
    return;
  }
  if (action.kind === 'open-logs') {
    void shell.openPath(logsDir);
    return;
  }
  windows?.focus();
  services.desktop.command(action.command);
}

if (primary) {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (windows && BrowserWindow.getAllWindows().length === 0) void windows.open();
  });

  // Electron exits right after 'will-quit': hold it until the audit log and the replica are closed (bounded).
  const quit = new QuitSequence({
    close: async () => {
      await services?.close();
    },
    quit: () => app.quit(),
    log: (message, error) => console.error(`[quit] ${message}`, error ?? ''),
  });
  app.on('will-quit', (event) => quit.onWillQuit(event));

  start().catch(async (error: unknown) => {
    await reportStartFailure(error, logsDir, services?.logger);
    app.exit(1);
  });
}
