import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/host-server.js';
import { AppEvents } from '../../electron/services/events.js';
import { PageLoading } from '../../electron/services/overview/page-loading.js';
import { SANDBOX_TERMS } from '../../shared/money/agreement-terms.js';
import { stubHandlers } from '../support/stub-handlers.js';

/**
 * The browser host over real HTTP: when the page has been served the code it starts with (the overview a launch
 * counts waits for that, issue 25), and the renderer's files answered from memory once read.
 */
const keychain = { kind: 'memory' as const, reason: 'test' };
const handlers = stubHandlers({
  'profiles.list': async () => [{ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1', builtIn: true, lastCustomerIds: [], terms: SANDBOX_TERMS }],
  'session.status': async () => ({ signedIn: false, profileId: 'sandbox', keychain }),
});

// As Vite builds it: the module script, the modules it imports preloaded, style sheets; a lazy chunk is not named.
const PAGE = `<!doctype html><html><head>
<script type="module" crossorigin src="./assets/index-A1.js"></script>
<link rel="modulepreload" crossorigin href="./assets/shared-B2.js">
<link rel="stylesheet" crossorigin href="./assets/index-C3.css">
</head><body><div id="app"></div></body></html>`;

let host: BrowserHost | null = null;
let dir = '';

afterEach(async () => {
  await host?.close();
  host = null;
  await rm(dir, { recursive: true, force: true });
});

async function startHost(onPageCode: () => void, pageLoading?: PageLoading, launching?: () => void): Promise<{ get: (path: string) => Promise<{ status: number; body: string }>; post: (path: string) => Promise<number> }> {
  dir = await mkdtemp(join(tmpdir(), 'cd-host-code-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), PAGE);
  await writeFile(join(dir, 'api-shim.js'), 'window.api = {};');
  for (const name of ['index-A1.js', 'shared-B2.js', 'lazy-D4.js']) await writeFile(join(dir, 'assets', name), `export const name = ${JSON.stringify(name)};`);
  await writeFile(join(dir, 'assets', 'index-C3.css'), 'body { margin: 0 }');
  const started = await startBrowserHost({ handlers, events: new AppEvents(), rendererDir: dir, shimFile: join(dir, 'api-shim.js'), onPageCode, ...(pageLoading ? { pageLoading } : {}) });
  host = started;
  const hostHeader = new URL(started.origin).host;
  const ask = (path: string, method: string, cookie: string) =>
    new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: started.port, path, method, headers: { host: hostHeader, cookie, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(method === 'POST' ? 'null' : undefined);
    });
  const launch = new URL(started.newLaunchUrl());
  launching?.();
  const opened = await ask(launch.pathname + launch.search, 'GET', '');
  const cookie = String(opened.headers['set-cookie']).split(';')[0] as string;
  return { get: (path) => ask(path, 'GET', cookie), post: async (path) => (await ask(path, 'POST', cookie)).status };
}

describe('the page\'s code, served by the browser host', () => {
  it('is said to be served once the page and every file its head starts with were, not before, and only once', async () => {
    let said = 0;
    const page = await startHost(() => (said += 1));
    expect((await page.get('/')).status).toBe(200);
    expect((await page.get('/assets/index-A1.js')).status).toBe(200);
    expect((await page.get('/assets/lazy-D4.js')).status).toBe(200);
    expect((await page.get('/assets/shared-B2.js')).status).toBe(200);
    expect(said).toBe(0);
    expect((await page.get('/assets/index-C3.css')).status).toBe(200);
    expect(said).toBe(1);
    // A second window (or a reload) says nothing again.
    await page.get('/');
    for (const file of ['/assets/index-A1.js', '/assets/shared-B2.js', '/assets/index-C3.css']) await page.get(file);
    expect(said).toBe(1);
  });

  it('is said to be served when the page calls the host, whatever it was served (a page whose files came from elsewhere)', async () => {
    let said = 0;
    const page = await startHost(() => (said += 1));
    await page.get('/');
    expect(said).toBe(0);
    expect(await page.post('/ipc/session.status')).toBe(200);
    expect(said).toBe(1);
  });

  it('is answered from memory once read: the build does not change under a running app', async () => {
    const page = await startHost(() => undefined);
    expect((await page.get('/assets/index-A1.js')).body).toBe('export const name = "index-A1.js";');
    await writeFile(join(dir, 'assets', 'index-A1.js'), 'changed on disk');
    expect((await page.get('/assets/index-A1.js')).body).toBe('export const name = "index-A1.js";');
    // What was not found is not kept: a file that appears later is served.
    expect((await page.get('/assets/later.js')).status).toBe(404);
    await writeFile(join(dir, 'assets', 'later.js'), 'late');
    expect((await page.get('/assets/later.js')).body).toBe('late');
  });

  it('serves the page and its code before a count under way goes on: its steps wait from the launch link to the code served (issue 25)', async () => {
    // A count as the launch's: statements that each hold the main process (a cold read from the disk, 60-280 ms at
    // load 25; 25 ms here), the event loop turned between two, then the first page's loading awaited.
    const seen: string[] = [];
    const loading = new PageLoading();
    const STEPS = 40;
    const count = (async () => {
      for (let step = 0; step < STEPS; step += 1) {
        seen.push('step');
        const end = performance.now() + 25;
        while (performance.now() < end) {
          // One statement: nothing else runs in this process meanwhile.
        }
        await yieldToEventLoop();
        await loading.loaded();
      }
      seen.push('count done');
    })();
    await yieldToEventLoop();
    // What the host tells, as it tells it.
    const told = Object.assign(Object.create(loading) as PageLoading, {
      pageAsked: () => (seen.push('host: page asked'), loading.pageAsked()),
      codeServed: () => (seen.push('host: code served'), loading.codeServed()),
    });
    const page = await startHost(() => undefined, told);
    seen.push('document asked');
    expect((await page.get('/')).status).toBe(200);
    for (const file of ['/assets/index-A1.js', '/assets/shared-B2.js', '/assets/index-C3.css']) expect((await page.get(file)).status).toBe(200);
    seen.push('code received');
    await count;
    const between = (from: string, to: string) => seen.slice(seen.indexOf(from), seen.indexOf(to)).filter((entry) => entry === 'step');
    // The count was under way before the page was asked for.
    expect(seen.indexOf('document asked')).toBeGreaterThan(0);
    // From the page's document asked to its last file sent, no statement ran: each request was answered at once (the
    // launch link, asked before, had the count wait already).
    expect(between('document asked', 'host: code served')).toEqual([]);
    // From the host's word that the page was asked (its launch link) to its word that the code was served, none either.
    expect(between('host: page asked', 'host: code served')).toEqual([]);
    expect(seen.indexOf('host: page asked')).toBeLessThan(seen.indexOf('document asked'));
    // The count went on after, to its end.
    expect(seen.indexOf('count done')).toBeGreaterThan(seen.indexOf('code received'));
    expect(seen.filter((entry) => entry === 'step')).toHaveLength(STEPS);
  });
});
