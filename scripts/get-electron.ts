import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findElectronBinary } from './lib/electron-binary.js';

/**
 * Setup's Electron step: Electron 45 has no postinstall that npm runs here, so
 * its binary arrives only when its install.js runs. Runs it with a time limit
 * and says in one line what came of it; never fails setup (the browser host
 * works without Electron).
 */
const DOWNLOAD_TIMEOUT_MS = 180_000;

function lastLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('at '));
  return lines.at(-1) ?? 'no message';
}

const before = findElectronBinary();
if (before.path !== null) {
  console.log(`setup: Electron binary present (${before.path})`);
} else if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('setup: Electron binary not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set); npm start will use the browser host');
} else {
  let installer: string | null = null;
  try {
    installer = join(dirname(createRequire(import.meta.url).resolve('electron/package.json')), 'install.js');
  } catch {
    console.log('setup: Electron binary not available (the electron package is not installed); npm start will use the browser host');
  }
  if (installer) {
    const run = spawnSync(process.execPath, [installer], { encoding: 'utf8', timeout: DOWNLOAD_TIMEOUT_MS });
    const after = findElectronBinary();
    if (after.path !== null) {
      console.log(`setup: Electron binary downloaded (${after.path})`);
    } else {
      const why = run.error
        ? `${run.error.message}${(run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? ` after ${DOWNLOAD_TIMEOUT_MS / 1000} s` : ''}`
        : lastLine(`${run.stderr}\n${run.stdout}`);
      console.log(`setup: Electron binary could not be downloaded (${why}); npm start will use the browser host`);
    }
  }
}
