import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Finds the Electron executable without require('electron'), which would try
 * to download it (and hang or fail on a machine with no way out).
 * Returns null, with the reason, when there is none.
 */
export function findElectronBinary(): { path: string } | { path: null; reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const candidate = join(override, relative ?? 'electron');
    return existsSync(candidate)
      ? { path: candidate }
      : { path: null, reason: `ELECTRON_OVERRIDE_DIST_PATH has no Electron at ${candidate}` };
  }
  if (!relative) return { path: null, reason: 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing)' };
  const candidate = join(packageDir, 'dist', relative);
  return existsSync(candidate) ? { path: candidate } : { path: null, reason: `no Electron binary at ${candidate}` };
}
