import { cp } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/services/ipc/dispatch.js';
import { ResilientSecretStore } from '../../electron/services/secrets/resilient-secret-store.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SwitchableSecretStore } from '../support/switchable-secret-store.js';

/**
 * Signing out while the keychain is failing (locked mid-run) cannot delete the
 * saved token; the next start must still not sign the user back in.
 */
const alex = { username: 'alex.morgan@example.com', password: 'sandbox-demo-1' };
const apps: TestApp[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()?.close();
});

async function restart(keychain: SwitchableSecretStore, from: TestApp): Promise<TestApp> {
  const app = await startTestApp({ secrets: new ResilientSecretStore(keychain), prepareDataDir: (dir) => cp(from.dataDir, dir, { recursive: true }) });
  apps.push(app);
  return app;
}

describe('sign-out and a keychain that fails', () => {
  it('a session signed out while the keychain could not delete its token is not restored at the next start', async () => {
    const keychain = new SwitchableSecretStore();
    const first = await startTestApp({ secrets: new ResilientSecretStore(keychain) });
    apps.push(first);
    expect(await dispatch(first.services.handlers, 'session.signIn', { profileId: 'sandbox', ...alex })).toMatchObject({ ok: true, value: { signedIn: true } });

    // A control: a restart with the session still signed in restores it.
    expect((await restart(keychain, first)).services.session.status()).toMatchObject({ signedIn: true });

    keychain.failing = true;
    expect(await dispatch(first.services.handlers, 'session.signOut', undefined)).toMatchObject({ ok: true, value: { signedIn: false } });
    // The keychain could not delete it: the token is still there.
    expect(keychain.inner.entries.size).toBeGreaterThan(0);

    keychain.failing = false;
    const next = await restart(keychain, first);
    expect(next.services.session.status()).toMatchObject({ signedIn: false });
  });
});
