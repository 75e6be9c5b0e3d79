import { afterEach, describe, expect, it } from 'vitest';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type { Result } from '../../shared/ipc/result.js';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const [alex, jordan] = SANDBOX_USERS as [(typeof SANDBOX_USERS)[number], (typeof SANDBOX_USERS)[number]];
const keychain = await realKeychain();
let app: TestApp | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
});

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

describe.skipIf(keychain.store === null && !KEYCHAIN_REQUIRED)('session against the sandbox and the real keychain', () => {
  it('signs in, keeps the token in the keychain only, lists linked accounts, and signs out', async () => {
    app = await startTestApp();
    const { handlers, dataDir } = app.services;
    if (!keychain.store) throw new Error('unreachable');

    const status = unwrap(await dispatchSignIn(app, alex.username, alex.password));
    expect(status).toMatchObject({ signedIn: true, profileId: 'sandbox', username: alex.username, keychain: { kind: 'keychain' } });
    expect(Date.parse(status.expiresAt ?? '') - Date.now()).toBeGreaterThan(3500_000);

    const entry = await keychain.keytar.getPassword(keychainService('sandbox'), alex.username);
    expect(entry).not.toBeNull();
    const token = (JSON.parse(entry as string) as { accessToken: string }).accessToken;
    expect(token.split('.')).toHaveLength(3);
    expect(JSON.stringify(status)).not.toContain(token);

    const accounts = await handlers['accounts.list'](undefined);
    expect(accounts.items.map((a) => a.accountId)).toEqual(alex.linkedAccounts.map((a) => a.accountId));

    const { readFile } = await import('node:fs/promises');
    const settings = await readFile(`${dataDir}/settings.json`, 'utf8');
    expect(settings).not.toContain(token);
    expect(settings).not.toContain(alex.password);

    await handlers['session.signOut'](undefined);
    expect(await keychain.keytar.getPassword(keychainService('sandbox'), alex.username)).toBeNull();
  });

  it('restores a still-valid session at start from the keychain', async () => {
    app = await startTestApp();
    unwrap(await dispatchSignIn(app, jordan.username, jordan.password));
    const restored = await app.services.session.restore();
    expect(restored).toMatchObject({ signedIn: true, username: jordan.username });
    await app.services.handlers['session.signOut'](undefined);
  });
});

describe('session errors', () => {
  it('reports a wrong password with the service description and stores nothing', async () => {
    const secrets = new MemorySecretStore('test');
    app = await startTestApp({ secrets });
    const result = await dispatchSignIn(app, alex.username, 'wrong-password');
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'Invalid username or password', description: 'Invalid username or password' },
    });
    expect(await secrets.get(keychainService('sandbox'), alex.username)).toBeNull();
    expect(app.services.session.status().signedIn).toBe(false);
  });

  it('says the session is memory-only when no keychain answers', async () => {
    app = await startTestApp({ secrets: new MemorySecretStore('No keychain here.') });
    const status = unwrap(await dispatchSignIn(app, alex.username, alex.password));
    expect(status.keychain).toEqual({ kind: 'memory', reason: 'No keychain here.' });
  });

  it('refuses calls after sign-out with an unauthorized error', async () => {
    app = await startTestApp({ secrets: new MemorySecretStore('test') });
    const { dispatch } = await import('../../electron/services/ipc/dispatch.js');
    const result = await dispatch(app.services.handlers, 'accounts.list', undefined);
    expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
  });
});

async function dispatchSignIn(testApp: TestApp, username: string, password: string) {
  const { dispatch } = await import('../../electron/services/ipc/dispatch.js');
  return dispatch(testApp.services.handlers, 'session.signIn', { profileId: 'sandbox', username, password }) as Promise<
    Result<{ signedIn: boolean; expiresAt?: string; keychain: { kind: string; reason?: string } }>
  >;
}
