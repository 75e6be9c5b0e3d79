import { app, type WebContents } from 'electron';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppUrl } from '../services/security/origins.js';
import { judgeProbe, SMOKE_EXIT, SMOKE_PROBE, SMOKE_RESULT_FILE, SMOKE_TIMEOUT_MS, smokeRequested, type SmokeResult } from '../services/desktop/smoke-check.js';
import { runSelfCheck, SMOKE_KEYCHAIN_ENV } from '../services/desktop/smoke-self-check.js';
import { CapacityReplicaDb } from '../services/replica/capacity-replica-db.js';
import { KeytarSecretStore, loadKeytar } from '../services/secrets/keytar-secret-store.js';

/**
 * With CAPACITY_DESK_SMOKE=1 (the release workflow's smoke launch of each
 * installer): quit 0 once the first window's page has loaded, the preload
 * answered app.info, and both native modules worked (a throw-away replica
 * and a keychain round trip); non-zero if any of that fails, the renderer
 * dies, or nothing happens within the time limit. Does nothing otherwise.
 */
export function armSmokeLaunch(): void {
  if (!smokeRequested(process.env)) return;
  let settled = false;
  const finish = (result: SmokeResult, code: number): void => {
    if (settled) return;
    settled = true;
    const line = result.ok
      ? `smoke: ok (${result.version}, ${result.platform}, sandbox ${result.sandboxed ? 'on' : 'OFF'}, keychain: ${result.keychain})`
      : `smoke: FAILED: ${result.reason}`;
    (result.ok ? console.log : console.error)(line);
    try {
      writeFileSync(join(app.getPath('userData'), SMOKE_RESULT_FILE), JSON.stringify(result));
    } catch (error) {
      console.error('smoke: could not write the result file', error);
    }
    app.exit(code);
  };
  const timer = setTimeout(() => finish({ ok: false, reason: `no answer within ${SMOKE_TIMEOUT_MS / 1000} s` }, SMOKE_EXIT.timeout), SMOKE_TIMEOUT_MS);
  timer.unref();

  app.once('browser-window-created', (_event, window) => watch(window.webContents));

  function watch(contents: WebContents): void {
    contents.once('did-fail-load', (_event, code, description, url) => finish({ ok: false, reason: `${url} failed to load: ${description} (${code})` }, SMOKE_EXIT.failed));
    contents.once('render-process-gone', (_event, details) => finish({ ok: false, reason: `the renderer is gone: ${details.reason}` }, SMOKE_EXIT.failed));
    contents.once('did-finish-load', () => {
      contents.executeJavaScript(SMOKE_PROBE).then(
        async (answer: unknown) => {
          const page = judgeProbe(answer, isAppUrl);
          if (!page.ok) return finish(page, SMOKE_EXIT.failed);
          const native = await nativeSelfCheck();
          if (!native.ok) return finish(native, SMOKE_EXIT.failed);
          return finish({ ...page, keychain: native.keychain }, SMOKE_EXIT.ok);
        },
        (error: unknown) => finish({ ok: false, reason: `the probe failed in the page: ${String(error)}` }, SMOKE_EXIT.failed),
      );
    });
  }
}

/** better_sqlite3.node and keytar.node as shipped: a broken one fails the smoke launch, not a customer's first sign-in. */
function nativeSelfCheck(): ReturnType<typeof runSelfCheck> {
  return runSelfCheck({
    replicaRoundTrip: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-smoke-replica-'));
      try {
        const db = CapacityReplicaDb.open(join(dir, 'replica.db'), randomBytes(32));
        await db.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    loadKeychain: () => new KeytarSecretStore(loadKeytar()),
    keychainRequired: process.env[SMOKE_KEYCHAIN_ENV] === 'required',
    random: () => randomBytes(6).toString('hex'),
  });
}
