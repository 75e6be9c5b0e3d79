import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../shared/ipc/profiles.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

/**
 * The https-or-loopback rule of the environment editor holds for a
 * settings.json written by hand, by a setup script or copied from a colleague:
 * such an environment is listed as unusable with the reason and nothing is ever
 * sent to it (no password at sign-in, no stored token at start).
 */

/** An address of this computer that is not loopback, as another computer on the network would be reached. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

let listener: Server;
const seen: Array<{ method: string; url: string; body: string }> = [];
let dataDir: string;
let app: FastApp;
const secrets = new MemorySecretStore('test');

async function record(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

beforeAll(async () => {
  // A service that would happily take a password in clear text, on every address of this computer.
  listener = createServer((request, response) => {
    void record(request).then((body) => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln', token_type: 'Bearer', expires_in: 3600 }));
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
  const port = (listener.address() as { port: number }).port;
  dataDir = await mkdtemp(join(tmpdir(), 'cd-settings-url-'));
  const settings = {
    version: 1,
    activeProfileId: 'lan',
    profiles: [
      { id: 'lan', name: 'Colleague copy', baseUrl: `http://${lanAddress ?? '192.0.2.10'}:${port}` },
      { id: 'metadata', name: 'Metadata', baseUrl: 'http://169.254.169.254' },
      { id: 'metadata-tls', name: 'Metadata TLS', baseUrl: 'https://169.254.169.254/latest' },
      { id: 'loopback', name: 'Local dev', baseUrl: `http://127.0.0.1:${port}` },
      { id: 'remote', name: 'Production', baseUrl: 'https://api.example.com' },
    ],
    lastUsernames: { lan: 'alex.morgan@example.com' },
    restorable: { lan: 'alex.morgan@example.com' },
  };
  await writeFile(join(dataDir, 'settings.json'), JSON.stringify(settings));
  // A token kept from an earlier run: restoring it would send it in clear text.
  await secrets.set(keychainService('lan'), 'alex.morgan@example.com', JSON.stringify({ accessToken: 'kept-token-value', expiresAt: new Date(Date.now() + 3_600_000).toISOString() }));
  app = await startFastApp({ secrets, dataDir });
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => listener?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

describe('an environment from settings.json whose URL breaks the rule', () => {
  it('is listed as unusable with the reason; good ones are not', async () => {
    const listed = await app.call('profiles.list');
    if (!listed.ok) throw new Error(JSON.stringify(listed.error));
    const byId = Object.fromEntries((listed.value as Profile[]).map((profile) => [profile.id, profile.unusable]));
    expect(byId.lan).toBe('Use https:// for a service on another computer (plain http is only for localhost)');
    expect(byId.metadata).toBe('Use https:// for a service on another computer (plain http is only for localhost)');
    expect(byId['metadata-tls']).toBe('A link-local address (such as a cloud metadata service) is not a Capacity Desk service');
    expect(byId.loopback).toBeUndefined();
    expect(byId.remote).toBeUndefined();
    expect(byId.sandbox).toBeUndefined();
  });

  it('is not restored at start, and is never signed in to: nothing reaches the service', async () => {
    expect(app.services.session.status().signedIn).toBe(false);
    for (const profileId of ['lan', 'metadata', 'metadata-tls']) {
      const answer = await app.call('session.signIn', { profileId, username: 'alex.morgan@example.com', password: 'sandbox-demo-1' });
      expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'profileId', message: expect.stringMatching(/^This environment cannot be used: /) } });
    }
    expect(seen).toEqual([]);
  });

  it('the same rule, applied by the editor, refuses these URLs when typed', async () => {
    for (const baseUrl of ['http://169.254.169.254', 'https://169.254.169.254', `http://${lanAddress ?? '192.0.2.10'}:80`, 'https://[fe80::1]/api']) {
      const saved = await app.call('profiles.save', { name: `Typed ${baseUrl.length}`, baseUrl });
      expect(saved).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
  });

  it('a loopback environment from the same file is signed in to as before (the rule refuses only what it must)', async () => {
    const answer = await app.call('session.signIn', { profileId: 'loopback', username: 'someone', password: 'secret-123' });
    expect(answer.ok).toBe(true);
    expect(seen.map((request) => request.url)).toEqual(['/external/api/v1/sign-in']);
  });
});
