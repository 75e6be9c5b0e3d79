import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { createAppServices } from '../services/app-services.js';
import { startBenchProbe } from '../services/diagnostics/bench-probe.js';
import { markLaunch } from '../services/diagnostics/launch-marks.js';
import { defaultDataDir } from '../services/platform/data-dir.js';
import { startBrowserHost, type DevRenderer } from './host-server.js';
import { USAGE, parseHostArgs } from './cli-options.js';
import { removeStaleLaunchFiles, writeLaunchFile, type LaunchFile } from './launch-file.js';

/**
 * Runs Capacity Desk without Electron: the main-process services plus the
 * loopback host, opening Chromium in app mode when a display is there.
 */
markLaunch('host modules loaded');
const parsed = parseHostArgs(process.argv.slice(2));
if (parsed.kind === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (parsed.kind === 'error') {
  process.stderr.write(`${parsed.message}\n\n${USAGE}`);
  process.exit(2);
}
const options = parsed.options;

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = options.dataDir ?? defaultDataDir();
// The data folder holds the launch files, the logs and the offline copy: the owner's alone.
await mkdir(dataDir, { recursive: true, mode: 0o700 });
await removeStaleLaunchFiles(dataDir);
const services = await createAppServices({ dataDir, echoLogs: true, startSandbox: builtInSandbox() });
markLaunch('services created');
startBenchProbe(services.events);
const host = await startBrowserHost({
  handlers: services.handlers,
  events: services.events,
  rendererDir: join(here, '..', 'renderer'),
  shimFile: join(here, 'api-shim.js'),
  port: options.port,
  reportInternal: (where, error) => services.logger.error(where, 'internal error', error),
  log: (line) => services.logger.warn('browser-host', line),
  onLaunch: () => void launchFile?.remove(),
  pageLoading: services.pageLoading,
  ...(options.devRenderer ? { devRenderer: devRenderer(options.devRenderer, options.devSocket, options.devNonce) } : {}),
});
markLaunch('host listening');
let launchFile: LaunchFile | null = null;
/** Long enough to copy a printed link into a browser; still single-use. */
const PRINTED_LINK_TTL_MS = 10 * 60_000;

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

const browser = options.noOpen ? null : findChromium();
if (browser && hasDisplay()) {
  console.log('Opening Capacity Desk in Chromium (app mode). Close its window to quit.');
  // The browser gets the address of a file only this user can read, never the code itself.
  launchFile = await writeLaunchFile(dataDir, host.newLaunchUrl());
  const handedOut = launchFile;
  setTimeout(() => void handedOut.remove(), 2 * 60_000).unref();
  const child = spawn(
    browser,
    [
      `--app=${launchFile.url}`,
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
    void handedOut.remove();
    // A browser that could not start at all should not take the app down: offer an address instead.
    if (code !== 0 && Date.now() - openedAt < 10_000) {
      console.log(`Chromium could not be opened (exit code ${code}).`);
      printLaunchLink();
      return;
    }
    void shutdown();
  });
} else {
  printLaunchLink();
}

/**
 * The printed link is for the person at this terminal (a terminal's output is
 * its owner's alone). It works once; Enter prints a new one.
 */
function printLaunchLink(): void {
  console.log(`Open this address in Chromium or Chrome (it works once, within 10 minutes):\n\n  ${host.newLaunchUrl(PRINTED_LINK_TTL_MS)}\n`);
  if (process.stdin.isTTY) {
    console.log('Press Enter for a new link, Ctrl+C to stop.');
    process.stdin.once('data', () => printLaunchLink());
  } else {
    console.log('Press Ctrl+C to stop.');
  }
}

function hasDisplay(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function findChromium(): string | null {
  // A browser of the user's choice (Chrome, Edge, Brave... any Chromium with --app).
  const chosen = process.env.CAPACITY_DESK_BROWSER;
  if (chosen) return existsSync(chosen) ? chosen : null;
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

/** The Vite dev server of `npm run dev`: loopback addresses only, as scripts/dev.ts passes them. */
function devRenderer(origin: string, socketOrigin: string | undefined, nonce: string | undefined): DevRenderer {
  const loopback = /^(http|ws):\/\/127\.0\.0\.1:\d+$/;
  if (!loopback.test(origin) || !socketOrigin || !loopback.test(socketOrigin) || !nonce || !/^[A-Za-z0-9+/=]+$/.test(nonce)) {
    throw new Error('--dev-renderer, --dev-socket and --dev-nonce must name a loopback Vite server (npm run dev passes them)');
  }
  return { origin, socketOrigin, nonce };
}
