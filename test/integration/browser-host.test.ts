import { mkdtemp, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/host-server.js';
import { AppEvents } from '../../electron/services/events.js';
import type { Handlers } from '../../shared/ipc/contract.js';
import { SANDBOX_TERMS } from '../../shared/money/agreement-terms.js';
import { stubHandlers } from '../support/stub-handlers.js';

/** Raw HTTP against the browser host: the secret, Host and Origin checks. */
const keychain = { kind: 'memory' as const, reason: 'test' };
const handlers: Handlers = stubHandlers({
  'profiles.list': async () => [{ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1', builtIn: true, lastCustomerIds: [], terms: SANDBOX_TERMS }],
  'session.status': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
  'session.signIn': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
  'session.signOut': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
  'accounts.list': async () => ({ items: [], skipped: [], origin: { source: 'service', fetchedAt: new Date().toISOString() } }),
});

let host: BrowserHost;
let cookie: string;
let firstLaunchUrl: string;
const logLines: string[] = [];

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method: options.method ?? 'GET', headers: { host: new URL(host.origin).host, ...options.headers } },
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
  firstLaunchUrl = host.newLaunchUrl();
  const launch = await raw(pathOf(firstLaunchUrl));
  expect(launch.status).toBe(200);
  const setCookie = String(launch.headers['set-cookie']);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  cookie = setCookie.split(';')[0] as string;
});

afterAll(async () => {
  await host.close();
});

function pathOf(url: string): string {
  return new URL(url).pathname + new URL(url).search;
}

describe('browser host', () => {
  it('binds to 127.0.0.1 only, under a host name of its own made up for this run', async () => {
    expect(host.origin).toMatch(/^http:\/\/cd-[0-9a-f]{24}\.localhost:\d+$/);
    const other = await startBrowserHost({ handlers, events: new AppEvents(), rendererDir: '/nonexistent', shimFile: '/nonexistent/x.js' });
    expect(new URL(other.origin).hostname).not.toBe(new URL(host.origin).hostname);
    await other.close();
  });

  it('serves the app with the shim and the CSP once the secret cookie is set', async () => {
    const page = await raw('/', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script defer src="/api-shim.js"></script>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses every request without the secret', async () => {
    expect((await raw('/')).status).toBe(401);
    expect((await raw('/api-shim.js')).status).toBe(401);
    const ipc = await raw('/ipc/session.status', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(ipc.status).toBe(401);
    expect((await raw('/', { headers: { cookie: 'cd_host=guess' } })).status).toBe(401);
    expect((await raw('/__launch?code=wrong')).status).toBe(403);
    expect((await raw('/__launch')).status).toBe(403);
  });

  it('takes a launch code once: a second use is refused with a page that says why', async () => {
    const again = await raw(pathOf(firstLaunchUrl));
    expect(again.status).toBe(403);
    expect(again.headers['content-type']).toMatch(/text\/html/);
    expect(again.body).toContain('This launch link cannot be used');
    expect(again.body).toContain('already been used or has expired');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('gives a session cookie that is not the launch code', () => {
    const code = new URL(firstLaunchUrl).searchParams.get('code') as string;
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(cookie).not.toContain(code);
    expect((cookie.split('=')[1] ?? '').length).toBeGreaterThanOrEqual(43);
  });

  it('refuses a launch code after its time is up', async () => {
    const url = host.newLaunchUrl(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await raw(pathOf(url))).status).toBe(403);
  });

  it('answers 400, not 500, to request targets that are not a plain path', async () => {
    for (const target of ['//', '//evil.example/x', 'http://127.0.0.1/', '*', '/%']) {
      const answer = await raw(target, { headers: { cookie } });
      expect.soft(answer.status, target).toBe(target === '/%' ? 404 : 400);
      expect.soft(answer.body, target).not.toMatch(/at .*\(|Error/);
    }
  });

  it('counts refusals instead of writing a line for each', async () => {
    const before = logLines.length;
    await Promise.all(Array.from({ length: 300 }, () => raw('/ipc/session.status', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })));
    expect(logLines.length - before).toBeLessThanOrEqual(1);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const rebinding = await raw('/', { headers: { cookie, host: `evil.example:${host.port}` } });
    expect(rebinding.status).toBe(421);
    expect((await raw('/', { headers: { cookie, host: `localhost:${host.port}` } })).status).toBe(421);
    // The cookie is bound to the name, the name to the port: neither loopback address nor the name on another port.
    expect((await raw('/', { headers: { cookie, host: `127.0.0.1:${host.port}` } })).status).toBe(421);
    expect((await raw('/', { headers: { cookie, host: `${new URL(host.origin).hostname}:${host.port + 1}` } })).status).toBe(421);
    expect((await raw('/', { headers: { cookie, host: new URL(host.origin).hostname } })).status).toBe(421);
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
    // The host's own part of the round trip, for the bench's resource timing: a duration and nothing else.
    expect(ok.headers['server-timing']).toMatch(/^dispatch;dur=\d+\.\d$/);
    const form = await raw('/ipc/session.status', { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
    const unknown = await raw('/ipc/session.token', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
    // Logged as a refusal, without the name the caller gave.
    expect(logLines).toContainEqual(expect.stringContaining('refused a request: a channel the contract does not have'));
    expect(logLines.join('\n')).not.toContain('session.token');
    const invalid = await raw('/ipc/session.signIn', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { profileId: 'sandbox', username: 'a' } }),
    });
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'password' } });
  });

  it('never writes a launch code or session cookie to its log', async () => {
    await host.close();
    host = await startBrowserHost({ handlers, events: new AppEvents(), rendererDir: '/nonexistent', shimFile: '/nonexistent/x.js', log: (l) => logLines.push(l) });
    expect(logLines.length).toBeGreaterThan(0);
    const log = logLines.join('\n');
    expect(log).toMatch(/refused \d+ more requests: 30\d no valid session cookie/);
    expect(log).not.toContain(new URL(firstLaunchUrl).searchParams.get('code') as string);
    expect(log).not.toContain(cookie.split('=')[1] as string);
  });
});

describe('browser host sessions expire', () => {
  async function openSession(target: BrowserHost): Promise<string> {
    const url = new URL(target.newLaunchUrl());
    const answer = await rawTo(target, url.pathname + url.search);
    expect(answer.status).toBe(200);
    return String(answer.headers['set-cookie']).split(';')[0] as string;
  }
  function rawTo(target: BrowserHost, path: string, cookieHeader?: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: target.port, path, headers: { host: new URL(target.origin).host, ...(cookieHeader ? { cookie: cookieHeader } : {}) } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('after a while without requests, and after its lifetime however busy; the cookie says so too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-host-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const short = await startBrowserHost({ handlers, events: new AppEvents(), rendererDir: dir, shimFile: join(dir, 'x.js'), sessionIdleMs: 800, sessionMaxMs: 3_000 });
    try {
      const launch = await rawTo(short, pathOf(short.newLaunchUrl()));
      expect(String(launch.headers['set-cookie'])).toMatch(/Max-Age=0\b|Max-Age=\d+/);
      expect(String(launch.headers['set-cookie'])).not.toMatch(/Domain=/i);

      const idle = await openSession(short);
      expect((await rawTo(short, '/', idle)).status).toBe(200);
      // Idle, lifetime and the pauses below are far apart, so a loaded machine's hiccups cannot blur them.
      await sleep(1_300);
      expect((await rawTo(short, '/', idle)).status).toBe(401);

      const busy = await openSession(short);
      const openedAt = Date.now();
      while (Date.now() - openedAt < 2_400) {
        expect((await rawTo(short, '/', busy)).status).toBe(200);
        await sleep(100);
      }
      await sleep(Math.max(0, openedAt + 3_300 - Date.now()));
      const late = await rawTo(short, '/', busy);
      expect(late.status).toBe(401);
      expect(late.body).toContain('session has ended');
    } finally {
      await short.close();
    }
  });
});
