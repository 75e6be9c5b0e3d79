/**
 * Trust II, item 3: a session's token goes only to the base URL that issued
 * it. Through the real IPC dispatch and services, with two hostile proxies in
 * front of the sandbox standing for "the old URL" and "the new URL"; each
 * records which requests carried a token.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { AppEvents } from '../../electron/services/events.js';
import { ProfileRegistry } from '../../electron/services/profiles/profile-registry.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { SessionService } from '../../electron/services/session/session-service.js';
import { SettingsStore } from '../../electron/services/settings/settings-store.js';
import { AppFailure } from '../../shared/ipc/result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { sandboxAccess } from '../support/test-app.js';
import { startHostileProxy, type HostileProxy } from '../support/hostile-proxy.js';
import { value } from '../support/ipc-result.js';

const SIGN_IN = ENDPOINTS.signIn.path;

let dataDir: string;
let secrets: MemorySecretStore;
/** What each test started, closed in reverse order after it. */
const open: Array<{ close(): Promise<void> }> = [];

async function start(): Promise<FastApp> {
  const app = await startFastApp({ dataDir, secrets });
  open.push(app);
  return app;
}
async function proxyFor(app: FastApp): Promise<HostileProxy> {
  const proxy = await startHostileProxy(app.services.sandbox.url, sandboxAccess(app.services));
  open.push(proxy);
  return proxy;
}
const withToken = (proxy: HostileProxy) => proxy.requests.filter((line) => line.endsWith('[token]'));

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-url-bound-'));
  secrets = new MemorySecretStore('tests use a memory store');
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('3. a session is bound to the base URL that issued its token', () => {
  it('refuses to change the URL of an environment while a sign-in to it is pending; the token goes to the old URL only', async () => {
    const app = await start();
    const [oldUrl, newUrl] = [await proxyFor(app), await proxyFor(app)];
    const profile = value<{ id: string }>(await app.call('profiles.save', { name: 'Moving', baseUrl: oldUrl.url }));
    // The sign-in answer comes a byte at a time: the sign-in stays pending for a while.
    oldUrl.setRules([{ method: 'POST', pathPrefix: SIGN_IN, answer: { kind: 'trickle', everyMs: 5 } }]);
    const signingIn = app.call('session.signIn', { profileId: profile.id, username: ALEX.username, password: ALEX.password });
    await expect.poll(() => oldUrl.requests.some((line) => line.startsWith(`POST ${SIGN_IN}`))).toBe(true);

    const moved = await app.call('profiles.save', { id: profile.id, name: 'Moving', baseUrl: newUrl.url });
    expect(moved).toMatchObject({
      ok: false,
      error: { kind: 'conflict', field: 'baseUrl', message: 'A sign-in to this environment is under way. Wait until it finishes before changing its URL.' },
    });
    const signedIn = await signingIn;
    expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ ok: true, value: { signedIn: true } });
    value(await app.call('capacity.list', { limit: 10 }));
    expect(withToken(oldUrl).length).toBeGreaterThan(0);
    expect(newUrl.requests).toEqual([]);
  });

  it('a settings file that now points the environment elsewhere does not restore the session there: no token reaches the new URL', async () => {
    const first = await start();
    const [oldUrl, newUrl] = [await proxyFor(first), await proxyFor(first)];
    const profile = value<{ id: string }>(await first.call('profiles.save', { name: 'Moving', baseUrl: oldUrl.url }));
    value(await first.call('session.signIn', { profileId: profile.id, username: ALEX.username, password: ALEX.password }));
    await first.services.close();
    open.splice(open.indexOf(first), 1);

    // Edited by hand, by a setup script or copied from a colleague while the app was closed.
    const file = join(dataDir, 'settings.json');
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll(oldUrl.url, newUrl.url));
    const next = await start();
    expect(value(await next.call('session.status'))).toMatchObject({ signedIn: false });
    await next.call('capacity.list', { limit: 10 });
    expect(withToken(newUrl)).toEqual([]);
  });

  it('a restart with the URL unchanged restores the session (the control of the test above)', async () => {
    const first = await start();
    const profile = value<{ id: string }>(await first.call('profiles.save', { name: 'Staying', baseUrl: first.services.sandbox.url }));
    value(await first.call('session.signIn', { profileId: profile.id, username: ALEX.username, password: ALEX.password }));
    const url = first.services.sandbox.url;
    await first.services.close();
    open.splice(open.indexOf(first), 1);
    // The sandbox of the next start listens elsewhere: keep this environment on the URL that issued the token.
    const file = join(dataDir, 'settings.json');
    const next = await start();
    expect((await readFile(file, 'utf8')).includes(url)).toBe(true);
    expect(value(await next.call('session.status'))).toMatchObject({ signedIn: true, profileId: profile.id });
  });

  describe('when the settings change underneath, past the profile editor', () => {
    async function sessionBetween(): Promise<{ session: SessionService; settings: SettingsStore; profileId: string; oldUrl: HostileProxy; newUrl: HostileProxy }> {
      const app = await start();
      const [oldUrl, newUrl] = [await proxyFor(app), await proxyFor(app)];
      const settings = new SettingsStore(join(dataDir, 'own'));
      await settings.load();
      const profiles = new ProfileRegistry(settings, () => app.services.sandbox.url);
      const profileId = (await profiles.save({ name: 'Moving', baseUrl: oldUrl.url })).id;
      const clients = new Map<string, ApiClient>();
      const session = new SessionService({
        secrets,
        settings,
        profiles,
        events: new AppEvents(),
        clientFor: (baseUrl) => {
          const client = clients.get(baseUrl) ?? new ApiClient({ baseUrl });
          clients.set(baseUrl, client);
          return client;
        },
      });
      open.push({
        close: async () => {
          session.dispose();
          for (const client of clients.values()) await client.close();
        },
      });
      return { session, settings, profileId, oldUrl, newUrl };
    }
    const moveTo = (settings: SettingsStore, id: string, baseUrl: string) =>
      settings.update((s) => ({ ...s, profiles: s.profiles.map((p) => (p.id === id ? { ...p, baseUrl } : p)) }));

    it('a signed-in session whose environment now has another URL ends, and sends its token nowhere', async () => {
      const { session, settings, profileId, oldUrl, newUrl } = await sessionBetween();
      await session.signIn({ profileId, username: ALEX.username, password: ALEX.password });
      await moveTo(settings, profileId, newUrl.url);
      const refused = await session.authorized((client, token) => client.call('linkedAccounts', { token })).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppFailure);
      expect((refused as AppFailure).error).toMatchObject({ kind: 'unauthorized', message: expect.stringContaining('URL changed since you signed in') });
      expect(session.status()).toMatchObject({ signedIn: false, endedBecause: 'rejected' });
      expect(withToken(oldUrl)).toEqual([]);
      expect(newUrl.requests).toEqual([]);
    });

    it('a sign-in whose environment moved while it was pending is refused, and its token is not kept', async () => {
      const { session, settings, profileId, oldUrl, newUrl } = await sessionBetween();
      oldUrl.setRules([{ method: 'POST', pathPrefix: SIGN_IN, answer: { kind: 'trickle', everyMs: 5 } }]);
      const signingIn = session.signIn({ profileId, username: ALEX.username, password: ALEX.password }).catch((error: unknown) => error);
      await expect.poll(() => session.signInPending(profileId)).toBe(true);
      await moveTo(settings, profileId, newUrl.url);
      const refused = await signingIn;
      expect((refused as AppFailure).error).toMatchObject({ kind: 'conflict', field: 'baseUrl' });
      expect(session.signInPending(profileId)).toBe(false);
      expect(session.status()).toMatchObject({ signedIn: false });
      expect(await secrets.get(keychainService(profileId), ALEX.username)).toBeNull();
      expect(newUrl.requests).toEqual([]);
    });
  });
});
