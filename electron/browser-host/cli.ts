import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAppServices } from '../services/app-services.js';
import { defaultDataDir } from '../services/platform/data-dir.js';
import { startBrowserHost } from './host-server.js';

/**
 * Runs Capacity Desk without Electron: the main-process services plus the
 * loopback host, opening Chromium in app mode when a display is there.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    'no-open': { type: 'boolean', default: false },
  },
});

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = values['data-dir'] ?? defaultDataDir();
await mkdir(dataDir, { recursive: true });
const services = await createAppServices({ dataDir, echoLogs: true });
const host = await startBrowserHost({
  handlers: services.handlers,
  events: services.events,
  rendererDir: join(here, '..', 'renderer'),
  shimFile: join(here, 'api-shim.js'),
  port: values.port ? Number(values.port) : 0,
  reportInternal: (where, error) => services.logger.error(where, 'internal error', error),
  log: (line) => services.logger.warn('browser-host', line),
});

console.log(`Capacity Desk (browser host) is running. Data folder: ${dataDir}`);
console.log(`Logs: ${services.logger.dir}`);
if (services.secrets.status.kind === 'memory') console.log(`Keychain: ${services.secrets.status.reason}`);

const shutdown = async (code = 0) => {
  await host.close();
  await services.close();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

const browser = values['no-open'] ? null : findChromium();
if (browser && hasDisplay()) {
  console.log('Opening Capacity Desk in Chromium (app mode). Close its window to quit.');
  const child = spawn(
    browser,
    [
      `--app=${host.launchUrl}`,
      `--user-data-dir=${join(dataDir, 'browser-host-profile')}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--window-size=1280,800',
      // Chromium refuses to start as root with its sandbox (containers, CI machines); nowhere else.
      ...(process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
    { stdio: 'ignore' },
  );
  const openedAt = Date.now();
  child.on('exit', (code) => {
    // A browser that could not start at all should not take the app down: offer the address instead.
    if (code !== 0 && Date.now() - openedAt < 10_000) {
      console.log(`Chromium could not be opened (exit code ${code}). Open this address instead:\n\n  ${host.launchUrl}\n`);
      return;
    }
    void shutdown();
  });
} else {
  // The launch URL carries the per-launch secret: it is printed for the person at the keyboard only.
  console.log(`Open this address in Chromium or Chrome:\n\n  ${host.launchUrl}\n\nPress Ctrl+C to stop.`);
}

function hasDisplay(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function findChromium(): string | null {
  const candidates =
    process.platform === 'darwin'
      ? ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']
      : process.platform === 'win32'
        ? [
            join(process.env['PROGRAMFILES'] ?? 'C:\\Program Files', 'Google', 'Chrome', 'Application', 'chrome.exe'),
            join(process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
          ]
        : ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
  return candidates.find((path) => existsSync(path)) ?? null;
}
