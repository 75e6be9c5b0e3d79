import { describe, expect, it } from 'vitest';
import { judgeProbe, smokeRequested } from '../../../electron/services/desktop/smoke-check.js';
import { isAppUrl } from '../../../electron/services/security/origins.js';

const info = { name: 'Capacity Desk', version: '1.4.0', host: 'electron', platform: 'linux', versions: {}, updates: { available: false }, notifications: { available: true }, sandbox: { available: true } };
const page = { url: 'app://capacity-desk/index.html', readyState: 'complete', preload: true };

describe('smoke launch verdict', () => {
  it('is asked for only by CAPACITY_DESK_SMOKE=1', () => {
    expect(smokeRequested({ CAPACITY_DESK_SMOKE: '1' })).toBe(true);
    expect(smokeRequested({ CAPACITY_DESK_SMOKE: 'true' })).toBe(false);
    expect(smokeRequested({})).toBe(false);
  });

  it('passes when the app page loaded and app.info answered through the preload', () => {
    expect(judgeProbe({ ...page, answer: { ok: true, value: info } }, isAppUrl)).toEqual({ ok: true, version: '1.4.0', platform: 'linux', sandboxed: true });
    // The AppImage on Ubuntu 24.04+ starts without Chromium's sandbox: the verdict records it for the launcher to judge.
    expect(judgeProbe({ ...page, answer: { ok: true, value: { ...info, sandbox: { available: false, reason: 'off' } } } }, isAppUrl)).toMatchObject({ ok: true, sandboxed: false });
  });

  it('fails, saying why, on each way a start can go wrong', () => {
    const reason = (raw: unknown) => {
      const result = judgeProbe(raw, isAppUrl);
      return result.ok ? 'passed' : result.reason;
    };
    expect(reason({ ...page, preload: false })).toMatch(/preload did not expose window.api/);
    expect(reason({ ...page, url: 'chrome-error://chromewebdata/', answer: { ok: true, value: info } })).toMatch(/not the app/);
    expect(reason({ ...page, readyState: 'loading', answer: { ok: true, value: info } })).toMatch(/still loading/);
    expect(reason({ ...page, answer: { ok: false, error: { kind: 'internal', message: 'boom' } } })).toMatch(/failed: boom/);
    expect(reason({ ...page, answer: { ok: true, value: { ...info, host: 'browser' } } })).toMatch(/host is browser/);
    expect(reason({ ...page, answer: undefined })).toMatch(/unreadable/);
    expect(reason(null)).toMatch(/unreadable/);
  });
});
