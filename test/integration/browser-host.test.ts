import { mkdtemp, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/host-server.js';
import { AppEvents } from '../../electron/services/events.js';
import type { Handlers } from '../../electron/services/ipc/handlers.js';
import { stubHandlers } from '../support/stub-handlers.js';

/** Raw HTTP against the browser host: the secret, Host and Origin checks. */
const keychain = { kind: 'memory' as const, reason: 'test' };
const handlers: Handlers = stubHandlers({
  'profiles.list': async () => [{ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1', builtIn: true, lastCustomerIds: [] }],
  'session.status': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
  'session.signIn': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
  'session.signOut': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
  'accounts.list': async () => ({ items: [], skipped: [] }),
});

let host: BrowserHost;
let cookie: string;
const logLines: string[] = [];

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${host.port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cd-host-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  await writeFile(join(dir, 'api-shim.js'), 'window.api = {};');
  host = await startBrowserHost({ handlers, events: new AppEvents(), rendererDir: dir, shimFile: join(dir, 'api-shim.js'), log: (l) => logLines.push(l) });
  const launch = await raw(new URL(host.launchUrl).pathname + new URL(host.launchUrl).search);
  expect(launch.status).toBe(303);
  const setCookie = String(launch.headers['set-cookie']);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  cookie = setCookie.split(';')[0] as string;
});

afterAll(async () => {
  await host.close();
});

describe('browser host', () => {
  it('binds to 127.0.0.1 only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the app with the shim and the CSP once the secret cookie is set', async () => {
    const page = await raw('/', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="/api-shim.js"></script>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses every request without the secret', async () => {
    expect((await raw('/')).status).toBe(401);
    expect((await raw('/api-shim.js')).status).toBe(401);
    const ipc = await raw('/ipc/session.status', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(ipc.status).toBe(401);
    expect((await raw('/', { headers: { cookie: 'cd_host=guess' } })).status).toBe(401);
    expect((await raw('/__launch?key=wrong')).status).toBe(403);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const rebinding = await raw('/', { headers: { cookie, host: `evil.example:${host.port}` } });
    expect(rebinding.status).toBe(421);
    expect((await raw('/', { headers: { cookie, host: `localhost:${host.port}` } })).status).toBe(421);
  });

  it('refuses cross-origin and cross-site requests even with the cookie', async () => {
    const headers = { cookie, 'content-type': 'application/json' };
    const foreign = await raw('/ipc/session.status', { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: '{}' });
    expect(foreign.status).toBe(403);
    const site = await raw('/ipc/session.status', { method: 'POST', headers: { ...headers, 'sec-fetch-site': 'cross-site' }, body: '{}' });
    expect(site.status).toBe(403);
  });

  it('carries IPC as JSON only, through the contract', async () => {
    const headers = { cookie, origin: host.origin };
    const ok = await raw('/ipc/session.status', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
    expect(JSON.parse(ok.body)).toEqual({ ok: true, value: { signedIn: false, profileId: 'sandbox', keychain } });
    const form = await raw('/ipc/session.status', { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
    const unknown = await raw('/ipc/session.token', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
    const invalid = await raw('/ipc/session.signIn', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { profileId: 'sandbox', username: 'a' } }),
    });
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { kind: 'validation', field: 'password' } });
  });

  it('never writes the secret to its log', () => {
    const secret = new URL(host.launchUrl).searchParams.get('key') as string;
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(secret);
  });
});
