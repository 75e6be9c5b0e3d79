import { app, BrowserWindow, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServices, type AppServices } from '../services/app-services.js';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import { forwardEvents, registerContract } from './ipc-bridge.js';
import { createMainWindow } from './window.js';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '..', 'renderer');
const preloadPath = join(here, 'preload.cjs');

// Tests and portable installs point the data folder elsewhere.
if (process.env.CAPACITY_DESK_DATA_DIR) app.setPath('userData', process.env.CAPACITY_DESK_DATA_DIR);

registerAppScheme();

let services: AppServices | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  // No page of ours asks for a permission: refuse all of them.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  serveRenderer(rendererDir);
  services = await createAppServices({ dataDir: app.getPath('userData') });
  registerContract(services.handlers, (channel, error) => console.error(`[ipc] ${channel} failed`, error));
  const window = createMainWindow(preloadPath);
  forwardEvents(services.events, window.webContents);
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (services && BrowserWindow.getAllWindows().length === 0) {
    const window = createMainWindow(preloadPath);
    forwardEvents(services.events, window.webContents);
  }
});

app.on('will-quit', () => {
  void services?.close();
});

start().catch((error: unknown) => {
  console.error('Capacity Desk failed to start', error);
  app.exit(1);
});
