import { _electron as electron, type ElectronApplication } from '@playwright/test';
import { findPackagedApps } from '../../scripts/lib/packaged-app.js';
import { findElectronBinary } from '../../scripts/lib/electron-binary.js';
import { electronSuiteVerdict } from '../../scripts/lib/electron-suite.js';

/**
 * What the _electron suite launches: the packaged test build when
 * CAPACITY_DESK_PACKAGED_DIR names one (the release workflow sets it to
 * release/test after `npm run dist:test`), otherwise `electron .` from this
 * checkout. Null, with the reason, where there is no Electron at all.
 */
export type AppUnderTest =
  | { readonly executable: string; readonly args: readonly string[]; readonly packaged: boolean }
  | { readonly executable: null; readonly reason: string };

export function appUnderTest(): AppUnderTest {
  const found = findAppUnderTest();
  const verdict = electronSuiteVerdict(found.executable === null ? found.reason : null, process.env);
  // Thrown while the spec files load: Playwright fails the run, it cannot pass with the suite skipped.
  if (!verdict.run && 'fail' in verdict) throw new Error(verdict.fail);
  return found;
}

function findAppUnderTest(): AppUnderTest {
  const packagedDir = process.env.CAPACITY_DESK_PACKAGED_DIR;
  if (packagedDir) {
    const [app] = findPackagedApps(packagedDir);
    return app ? { executable: app.executable, args: [], packaged: true } : { executable: null, reason: `no packaged app in ${packagedDir}` };
  }
  const binary = findElectronBinary();
  return binary.path !== null ? { executable: binary.path, args: ['.'], packaged: false } : { executable: null, reason: binary.reason };
}

/** The environment every launch gets: its own data folder, and no update checks against the real feed. */
export function appEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, CAPACITY_DESK_DATA_DIR: dataDir, CAPACITY_DESK_DISABLE_UPDATES: '1' };
}

/** `switches`: Chromium command-line switches, e.g. --proxy-server for the proxy-route tests. */
export function launchApp(app: Extract<AppUnderTest, { executable: string }>, dataDir: string, switches: readonly string[] = []): Promise<ElectronApplication> {
  return electron.launch({ executablePath: app.executable, args: [...app.args, ...switches], env: appEnv(dataDir) });
}
