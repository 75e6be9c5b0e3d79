/**
 * Whether the _electron suite may be skipped. Where no Electron binary exists
 * (this project's own machines) it says "not run" and skips; the GitHub
 * workflows set CAPACITY_DESK_REQUIRE_ELECTRON=1, and there a missing binary
 * or packaged app fails the run instead of going green with nothing proven.
 * Not `CI`: this project's own CI sets CI=true and has no binary.
 */
export const REQUIRE_ELECTRON_ENV = 'CAPACITY_DESK_REQUIRE_ELECTRON';

export type ElectronSuiteVerdict = { readonly run: true } | { readonly run: false; readonly skip: string } | { readonly run: false; readonly fail: string };

export function electronSuiteVerdict(missing: string | null, env: Readonly<Record<string, string | undefined>>): ElectronSuiteVerdict {
  if (missing === null) return { run: true };
  if (env[REQUIRE_ELECTRON_ENV] === '1') {
    return { run: false, fail: `${REQUIRE_ELECTRON_ENV}=1, but there is no Electron to test (${missing}): the Electron suite must run here.` };
  }
  return { run: false, skip: `Electron binary not available, so the Electron suite did not run: ${missing}` };
}
