import { readFileSync, writeSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ipcChannelName } from '../../../shared/ipc/channels.js';
import { createStrictElectron } from './strict-electron.js';

/**
 * Runs the PACKAGED main bundle (extracted from app.asar) on the strict
 * electron stand-in, in its own process: `node --import tsx
 * packaged-main-harness.ts '<json options>'`. In `wiring` mode it prints one
 * JSON report line (prefixed REPORT) of what the app did; in `smoke` mode the
 * app's own smoke module decides the exit code. Not Electron: see
 * strict-electron.ts.
 */
const Options = z.object({
  appDir: z.string(),
  resources: z.string(),
  userData: z.string(),
  mode: z.enum(['wiring', 'smoke']),
  version: z.string(),
});
const options = Options.parse(JSON.parse(process.argv[2] ?? '{}'));

// What Electron's main process looks like to the app's code.
Object.defineProperty(process.versions, 'electron', { value: '45.0.0-stand-in', enumerable: true });
Object.defineProperty(process.versions, 'chrome', { value: '0.0.0-stand-in', enumerable: true });
Object.defineProperty(process, 'resourcesPath', { value: options.resources, enumerable: true });
Object.defineProperty(process, 'type', { value: 'browser', enumerable: true });

const electron = createStrictElectron({ version: options.version, appPath: options.appDir, userData: options.userData, isPackaged: true, platform: process.platform });
(globalThis as Record<string, unknown>).__capacityDeskStrictElectron = electron.main;

// The bundle keeps `electron` external, so Node resolves it from node_modules beside the app, as
// Electron resolves its built-in module: this folder hands over the stand-in (ESM and CommonJS).
const shim = join(options.appDir, 'node_modules', 'electron');
await mkdir(shim, { recursive: true });
await writeFile(join(shim, 'package.json'), JSON.stringify({ name: 'electron', exports: { import: './index.mjs', require: './index.cjs' } }));
await writeFile(join(shim, 'index.cjs'), 'module.exports = globalThis.__capacityDeskStrictElectron;\n');
await writeFile(
  join(shim, 'index.mjs'),
  `const electron = globalThis.__capacityDeskStrictElectron;\nexport default electron;\n${Object.keys(electron.main)
    .map((key) => `export const ${key} = electron.${key};`)
    .join('\n')}\n`,
);

const harnessLimit = setTimeout(() => {
  console.error(`harness: the app did not get through start-up (violations: ${electron.violations.join('; ') || 'none'})`);
  process.exit(90);
}, 90_000);
harnessLimit.unref();

await import(pathToFileURL(join(options.appDir, 'dist', 'electron', 'main.mjs')).href);
// Electron emits ready after the main module's first turn.
await new Promise((resolve) => setImmediate(resolve));
electron.emitReady();

if (options.mode === 'wiring') {
  const window = await waitFor(() => electron.windows[0]?.contents.page ?? null, 'the main window to load its page');
  const contents = electron.windows[0]!.contents;
  const channel = ipcChannelName('app.info');
  const fetchApp = async (url: string, method = 'GET') => {
    const response = await electron.protocolHandlers.get('app')!(new Request(url, { method }));
    return { url, status: response.status, contentType: response.headers.get('content-type'), csp: response.headers.get('content-security-policy') };
  };
  const refusedOrAnswered = async (frame: { url: string; parent: { url: string; parent: null } | null }) => electron.invokeFrom(contents, frame, channel, [undefined]);
  const report = {
    violations: electron.violations,
    privilegedSchemes: electron.privilegedSchemes,
    pageUrl: window.frame.url,
    exposed: Object.keys(window.world),
    webPreferences: electron.windows[0]!.options.webPreferences,
    protocol: await Promise.all([
      fetchApp('app://capacity-desk/index.html'),
      fetchApp('app://capacity-desk/no-such-file.js'),
      fetchApp('app://capacity-desk/../../package.json'),
      fetchApp('app://elsewhere/index.html'),
      fetchApp('app://capacity-desk/index.html', 'POST'),
    ]),
    appInfo: await window.evaluate('api.app.info()'),
    sessionStatus: await window.evaluate('api.session.status()'),
    foreignSender: await refusedOrAnswered({ url: 'https://evil.example/', parent: null }),
    subframeSender: await refusedOrAnswered({ url: 'app://capacity-desk/index.html', parent: { url: 'app://capacity-desk/index.html', parent: null } }),
    ownSender: await refusedOrAnswered({ url: 'app://capacity-desk/index.html', parent: null }),
    // Read after the page's first calls were answered: the services (and keytar with them) start beside the window.
    nativeModulesLoaded: Object.keys(createRequire(import.meta.url).cache).filter((path) => path.endsWith('.node')),
    menuInstalled: electron.applicationMenu !== null,
  };
  // Quit as a person would: the app holds will-quit until its services are closed (logs flushed), then exits
  // by itself (app.exit). The report is written as the process exits, so it shows that the app got that far.
  process.once('exit', (code) => {
    const logText = readLog();
    // Held at will-quit, then quit again by the app once its services closed.
    const quit = { exitCode: code, heldThenQuit: electron.log.filter((line) => line.startsWith('app.quit') || line === 'will-quit prevented') };
    writeSync(1, `REPORT ${JSON.stringify({ ...report, quit, refusalLines: logText.split('\n').filter((line) => line.includes('refused')) })}\n`);
  });
  (electron.main.app as { quit(): void }).quit();
  // A close that never ends still leaves within QuitSequence's limit; this is the harness's own backstop.
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  process.exit(91);
}

function readLog(): string {
  try {
    return readFileSync(join(options.userData, 'logs', 'capacity-desk.log'), 'utf8');
  } catch {
    return '';
  }
}

async function waitFor<T>(read: () => T | null, what: string): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += 50) {
    const value = read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`harness: timed out waiting for ${what}`);
}
