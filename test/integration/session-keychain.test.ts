/**
 * The keychain entry's whole life against the real OS keychain (GNOME Keyring
 * under scripts/with-keychain.sh, where CAPACITY_DESK_KEYCHAIN=required makes
 * a missing keychain a failure, never a skip): written at sign-in under
 * `Capacity Desk (<profile id>)` / `<username>`, read back at start, deleted
 * at sign-out, when the service rejects it, when it has expired and when its
 * profile is removed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { AppEvents } from '../../electron/services/events.js';
import { ProfileRegistry } from '../../electron/services/profiles/profile-registry.js';
import type { KeytarModule } from '../../electron/services/secrets/keytar-secret-store.js';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { SessionService } from '../../electron/services/session/session-service.js';
import { SettingsStore } from '../../electron/services/settings/settings-store.js';
import type { Profile } from '../../shared/ipc/profiles.js';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';
import { ALEX, JORDAN, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { sandboxAccess } from '../support/test-app.js';
import { value } from '../support/ipc-result.js';

const keychain = await realKeychain();
/** keytar itself, to read and write entries behind the app's back; only inside the suite, where the keychain is real. */
function keytar(): KeytarModule {
  if (!keychain.store) throw new Error('no keychain');
  return keychain.keytar;
}
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-keychain-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dir: string): Promise<FastApp> {
  if (!keychain.store) throw new Error('unreachable');
  const app = await startFastApp({ secrets: keychain.store, dataDir: dir });
  cleanups.push(() => app.close());
  return app;
}

const entry = (profileId: string, username: string) => keytar().getPassword(keychainService(profileId), username);

describe.skipIf(keychain.store === null && !KEYCHAIN_REQUIRED)('the keychain entry of a session (real keychain)', () => {
  it('is written at sign-in, restores the session at the next start, and is deleted at sign-out', async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const status = value<{ expiresAt: string }>(
      await first.call('session.signIn', { profileId: 'sandbox', username: JORDAN.username, password: JORDAN.password }),
    );
    const stored = JSON.parse((await entry('sandbox', JORDAN.username)) ?? 'null') as { accessToken: string; expiresAt: string };
    expect(stored.expiresAt).toBe(status.expiresAt);
    expect(stored.accessToken.split('.')).toHaveLength(3);
    const settings = await readFile(join(dir, 'settings.json'), 'utf8');
    expect(settings).not.toContain(stored.accessToken);
    expect(settings).not.toContain(JORDAN.password);

    // The next start: a new session service reading the same settings file and keychain (same service).
    const settingsAgain = new SettingsStore(dir);
    await settingsAgain.load();
    const client = new ApiClient({ baseUrl: first.services.sandbox.url, headers: sandboxAccess(first.services) });
    cleanups.push(() => client.close());
    if (!keychain.store) throw new Error('unreachable');
    const next = new SessionService({
      secrets: keychain.store,
      settings: settingsAgain,
      profiles: new ProfileRegistry(settingsAgain, () => first.services.sandbox.url),
      events: new AppEvents(),
      clientFor: () => client,
    });
    expect(await next.restore()).toMatchObject({ signedIn: true, username: JORDAN.username, expiresAt: status.expiresAt });
    const accounts = await next.authorized((c, token) => c.call('linkedAccounts', { token }));
    expect(accounts.map((a) => a.accountId)).toEqual(JORDAN.linkedAccounts.map((a) => a.accountId));

    await next.signOut();
    next.dispose();
    expect(await entry('sandbox', JORDAN.username)).toBeNull();
  });

  it('survives a restart of the whole app on the built-in sandbox, which keeps its signing key with its state', async () => {
    const dir = await dataDir();
    const app = await start(dir);
    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    await app.close();

    const restarted = await start(dir);
    expect(value(await restarted.call('session.status'))).toMatchObject({ signedIn: true, username: ALEX.username });
    expect(await restarted.call('accounts.list')).toMatchObject({ ok: true });
    expect(await entry('sandbox', ALEX.username)).not.toBeNull();
  });

  it('is deleted when the service rejects the token, and when it has expired by the next start', async () => {
    const dir = await dataDir();
    const app = await start(dir);
    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    expect(await entry('sandbox', ALEX.username)).not.toBeNull();
    await app.controls.setClock({ advanceSeconds: 3_700 });
    expect(await app.call('accounts.list')).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    await expect.poll(() => entry('sandbox', ALEX.username)).toBeNull();

    // A token whose lifetime has passed by the time the app starts is neither used nor kept.
    const past = new Date(Date.now() - 60_000).toISOString();
    await keytar().setPassword(keychainService('sandbox'), ALEX.username, JSON.stringify({ accessToken: 'a.b.c', expiresAt: past }));
    await app.close();
    const restarted = await start(dir);
    expect(value(await restarted.call('session.status'))).toMatchObject({ signedIn: false });
    expect(await entry('sandbox', ALEX.username)).toBeNull();
  });

  it('is deleted with its profile, and a profile in use cannot be removed', async () => {
    const app = await start(await dataDir());
    const profile = value<Profile>(await app.call('profiles.save', { name: 'Local copy', baseUrl: app.services.sandbox.url }));
    value(await app.call('session.signIn', { profileId: profile.id, username: ALEX.username, password: ALEX.password }));
    expect(await entry(profile.id, ALEX.username)).not.toBeNull();
    expect(await app.call('profiles.remove', { profileId: profile.id })).toMatchObject({ ok: false, error: { kind: 'conflict' } });

    value(await app.call('session.signOut'));
    // A left-over entry (the app was closed while signed in, say) goes with the profile.
    await keytar().setPassword(keychainService(profile.id), ALEX.username, '{"accessToken":"x","expiresAt":"2099-01-01T00:00:00.000Z"}');
    const left = value<Profile[]>(await app.call('profiles.remove', { profileId: profile.id }));
    expect(left.map((p) => p.id)).toEqual(['sandbox']);
    expect(await entry(profile.id, ALEX.username)).toBeNull();
  });
});
