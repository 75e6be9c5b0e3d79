import { z } from 'zod';
import { AppInfo } from '../../../shared/ipc/desktop.js';
import { resultSchema } from '../../../shared/ipc/result.js';

/**
 * The packaged-build smoke launch (release workflow, `npm run smoke`): with
 * CAPACITY_DESK_SMOKE=1 the app quits 0 once its page has loaded and the
 * preload answered a real IPC call, and non-zero on anything else. The
 * verdict is also written to the data folder, so a launcher can tell this
 * exit 0 from a quiet quit (a second instance, say).
 */
export const SMOKE_ENV = 'CAPACITY_DESK_SMOKE';
export const SMOKE_RESULT_FILE = 'smoke-result.json';
/** Long enough for a cold start of a notarised app on a busy runner, short enough to catch a hang. */
export const SMOKE_TIMEOUT_MS = 60_000;

export const SMOKE_EXIT = { ok: 0, failed: 3, timeout: 4 } as const;

export function smokeRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  return env[SMOKE_ENV] === '1';
}

/** Runs in the page (main world): what the renderer sees of the preload's bridge, after a round trip. */
export const SMOKE_PROBE = `(async () => {
  const api = globalThis.api;
  const probe = { url: location.href, readyState: document.readyState, preload: typeof api === 'object' && api !== null };
  if (!probe.preload || typeof api.app?.info !== 'function') return probe;
  return { ...probe, answer: await api.app.info() };
})()`;

const ProbeAnswer = z.object({
  url: z.string(),
  readyState: z.string(),
  preload: z.boolean(),
  answer: z.unknown().optional(),
});

export const SmokeResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    version: z.string(),
    platform: z.string(),
    /** Chromium's sandbox was on (the AppImage on Ubuntu 24.04+ runs without it; the launcher checks what it expected). */
    sandboxed: z.boolean(),
    /** What the keychain round trip found (smoke-self-check.ts). */
    keychain: z.string(),
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type SmokeResult = z.infer<typeof SmokeResult>;
/** What the page proved; the main process adds the native modules' self-check (smoke-self-check.ts). */
export type ProbeVerdict = { readonly ok: true; readonly version: string; readonly platform: string; readonly sandboxed: boolean } | { readonly ok: false; readonly reason: string };

/** Reads the probe's answer: the app's own page, fully loaded, and app.info answered through the preload. */
export function judgeProbe(raw: unknown, isAppUrl: (url: string) => boolean): ProbeVerdict {
  const probe = ProbeAnswer.safeParse(raw);
  if (!probe.success) return { ok: false, reason: `the page answered something unreadable: ${probe.error.message}` };
  const { url, readyState, preload, answer } = probe.data;
  if (!isAppUrl(url)) return { ok: false, reason: `the window shows ${url}, not the app` };
  if (readyState !== 'complete') return { ok: false, reason: `the page is still ${readyState}` };
  if (!preload) return { ok: false, reason: 'the preload did not expose window.api' };
  const info = resultSchema(AppInfo).safeParse(answer);
  if (!info.success) return { ok: false, reason: `app.info through the preload answered something unreadable: ${info.error.message}` };
  if (!info.data.ok) return { ok: false, reason: `app.info through the preload failed: ${info.data.error.message}` };
  if (info.data.value.host !== 'electron') return { ok: false, reason: `app.info says the host is ${info.data.value.host}` };
  return { ok: true, version: info.data.value.version, platform: info.data.value.platform, sandboxed: info.data.value.sandbox.available };
}
