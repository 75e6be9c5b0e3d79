import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import type { Channel } from '../../shared/ipc/channels.js';
import { createAppServices, type AppServices } from '../../electron/services/app-services.js';
import { dispatch } from '../../electron/services/ipc/dispatch.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { SANDBOX_USERS, type SandboxUser } from '../../sandbox/accounts.js';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { ACCESS_HEADER, startSandbox } from '../../sandbox/server.js';

/**
 * The built-in sandbox runs only once the Sandbox environment is chosen, and
 * then answers only the app that started it: a loopback port is open to every
 * program and user of the computer, and the demo passwords are published. Its
 * test controls are off as the app starts it. The standalone `npm run sandbox`
 * still answers anyone (curl).
 */
const ALEX = SANDBOX_USERS[0] as SandboxUser;
let dataDir: string;
let services: AppServices;
const call = (channel: Channel, input?: unknown) => dispatch(services.handlers, channel, input, () => undefined);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-built-in-'));
  // As the Electron shell and the browser host start it (electron/main/main.ts, electron/browser-host/cli.ts).
  services = await createAppServices({ dataDir, secrets: new MemorySecretStore('test'), startSandbox: builtInSandbox(), refreshReplicaAtSignIn: false });
});
afterAll(async () => {
  await services?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(`${services.sandbox.url}${path}`, { method: init.method ?? 'GET', headers: init.headers ?? {}, ...(init.body ? { body: init.body } : {}) });
  return { status: response.status, text: await response.text() };
}

const signInBody = JSON.stringify({ username: ALEX.username, password: ALEX.password });

describe('the built-in sandbox', () => {
  it('is not started before the Sandbox is chosen; the sign-in screen still names its demo accounts', async () => {
    expect(services.sandbox.running).toBe(false);
    const demo = await call('session.demoAccounts');
    expect(demo).toMatchObject({ ok: true, value: [{ username: ALEX.username }, { username: SANDBOX_USERS[1]?.username }] });
    expect(JSON.stringify(demo)).not.toContain(ALEX.password);
    expect(services.sandbox.running).toBe(false);
  });

  it('starts when the Sandbox is signed in to, and the app works with it', async () => {
    expect(await call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password })).toMatchObject({ ok: true, value: { signedIn: true } });
    expect(services.sandbox.running).toBe(true);
    expect(services.sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await call('accounts.list')).toMatchObject({ ok: true });
  });

  it('refuses a raw request to its port without the secret (403), before reading anything', async () => {
    const withoutSecret = await raw(ENDPOINTS.signIn.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signInBody });
    expect(withoutSecret.status).toBe(403);
    expect(withoutSecret.text).not.toContain('access_token');
    expect((await raw('/openapi.json')).status).toBe(403);
    expect((await raw(ENDPOINTS.signIn.path, { method: 'POST', headers: { [ACCESS_HEADER]: 'a-guess', 'content-type': 'application/json' }, body: signInBody })).status).toBe(403);
    expect((await raw(ENDPOINTS.signIn.path, { method: 'POST', headers: { [ACCESS_HEADER]: '', 'content-type': 'application/json' }, body: signInBody })).status).toBe(403);
  });

  it('keeps its test controls off as the app starts it, even for a request that carries the secret', async () => {
    const secret = services.sandbox.headersFor(services.sandbox.url);
    expect(secret).toBeDefined();
    for (const [method, path] of [['POST', '/sandbox/reset'], ['GET', '/sandbox/stats'], ['POST', '/sandbox/faults'], ['POST', '/sandbox/rename']] as const) {
      const body = method === 'POST' ? { body: '{}' } : {};
      expect((await raw(path, { method, headers: { ...secret, 'content-type': 'application/json' }, ...body })).status).toBe(404);
    }
  });

  it('gives its secret to requests to its own address only, never to another environment', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const other: Server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: '401', message: 'Unauthorized', details: { timestamp: '2026-11-22T01:18:15.123', description: 'Invalid username or password' } } }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as { port: number }).port;
      const saved = await call('profiles.save', { name: 'Local dev', baseUrl: `http://127.0.0.1:${port}` });
      if (!saved.ok) throw new Error(JSON.stringify(saved.error));
      await call('session.signIn', { profileId: (saved.value as { id: string }).id, username: 'someone', password: 'some-password' });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.[ACCESS_HEADER]).toBeUndefined();
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('the standalone sandbox (npm run sandbox)', () => {
  it('answers curl without any secret, as before', async () => {
    const standalone = await startSandbox({ port: 0 });
    try {
      const response = await fetch(`${standalone.url}${ENDPOINTS.signIn.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signInBody });
      expect(response.status).toBe(200);
      expect(standalone.accessHeaders).toEqual({});
    } finally {
      await standalone.close();
    }
  });
});
