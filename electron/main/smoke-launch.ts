import { app, type WebContents } from 'electron';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAppUrl } from '../services/security/origins.js';
import { judgeProbe, SMOKE_EXIT, SMOKE_PROBE, SMOKE_RESULT_FILE, SMOKE_TIMEOUT_MS, smokeRequested, type SmokeResult } from '../services/desktop/smoke-check.js';

/**
 * With CAPACITY_DESK_SMOKE=1 (the release workflow's smoke launch of each
 * installer): quit 0 once the first window's page has loaded and the preload
 * answered app.info, non-zero if the page fails, the renderer dies, or
 * nothing happens within the time limit. Does nothing otherwise.
 */
export function armSmokeLaunch(): void {
  if (!smokeRequested(process.env)) return;
  let settled = false;
  const finish = (result: SmokeResult, code: number): void => {
    if (settled) return;
    settled = true;
    const line = result.ok ? `smoke: ok (${result.version}, ${result.platform})` : `smoke: FAILED: ${result.reason}`;
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
        (answer: unknown) => {
          const result = judgeProbe(answer, isAppUrl);
          finish(result, result.ok ? SMOKE_EXIT.ok : SMOKE_EXIT.failed);
        },
        (error: unknown) => finish({ ok: false, reason: `the probe failed in the page: ${String(error)}` }, SMOKE_EXIT.failed),
      );
    });
  }
}
