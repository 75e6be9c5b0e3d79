import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/host-server.js';
import { AppEvents } from '../../electron/services/events.js';
import { fetch as undiciFetch } from 'undici';
import { loopbackAgent } from '../support/loopback-agent.js';
import { stubHandlers } from '../support/stub-handlers.js';

/**
 * `npm run dev`: the browser host in front of a real Vite dev server (the
 * project's own vite.config.ts). The page and its modules come from Vite under
 * the host's origin, with the shim first and a page policy that allows only
 * Vite's socket and nonce beyond the release policy; the session cookie is
 * still required for all of it.
 */
const NONCE = 'ZGV2LW5vbmNlLWZvci10ZXN0cw==';
let vite: ViteDevServer;
let host: BrowserHost;
let cookie: string;
// The host serves only on its per-run *.localhost name, which Node's resolver does not know.
const agent = loopbackAgent();
const fetch = (url: string, init: Parameters<typeof undiciFetch>[1] = {}) => undiciFetch(url, { ...init, dispatcher: agent });

async function get(path: string, withCookie = true): Promise<Response> {
  return fetch(`${host.origin}${path}`, { headers: withCookie ? { cookie } : {}, redirect: 'manual' });
}

beforeAll(async () => {
  vite = await createServer({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, hmr: false },
    html: { cspNonce: NONCE },
  });
  await vite.listen();
  const port = (vite.httpServer?.address() as AddressInfo).port;
  const dir = await mkdtemp(join(tmpdir(), 'cd-host-dev-'));
  await writeFile(join(dir, 'api-shim.js'), 'window.api = {};');
  host = await startBrowserHost({
    handlers: stubHandlers({}),
    events: new AppEvents(),
    rendererDir: join(dir, 'no-built-renderer'),
    shimFile: join(dir, 'api-shim.js'),
    devRenderer: { origin: `http://127.0.0.1:${port}`, socketOrigin: 'ws://127.0.0.1:24999', nonce: NONCE },
  });
  const launch = await fetch(host.newLaunchUrl());
  cookie = String(launch.headers.get('set-cookie')).split(';')[0] as string;
}, 60_000);

afterAll(async () => {
  await host?.close();
  await vite?.close();
});

describe('browser host in front of the Vite dev server', () => {
  it("serves Vite's page with the shim first and the development policy", async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.indexOf('<script defer src="/api-shim.js"></script>')).toBeGreaterThan(-1);
    expect(html.indexOf('/api-shim.js')).toBeLessThan(html.indexOf('/@vite/client'));
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(`connect-src 'self' ws://127.0.0.1:24999`);
    expect(policy).toContain(`style-src 'self' 'nonce-${NONCE}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('serves the renderer modules compiled by Vite (Svelte included), with source maps', async () => {
    const main = await get('/main.ts');
    expect(main.status).toBe(200);
    expect(main.headers.get('content-type')).toMatch(/javascript/);
    expect(await main.text()).toMatch(/sourceMappingURL=data:application\/json/);
    const app = await get('/App.svelte');
    expect(app.status).toBe(200);
    expect(await app.text()).toMatch(/svelte/);
  });

  it('still wants the session cookie for every page and module', async () => {
    expect((await get('/', false)).status).toBe(401);
    expect((await get('/main.ts', false)).status).toBe(401);
  });
});
