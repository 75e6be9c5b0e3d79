import { describe, expect, it } from 'vitest';
import { openSecretStore } from '../../../electron/services/secrets/open-secret-store.js';
import type { KeytarModule } from '../../../electron/services/secrets/keytar-secret-store.js';

function failingKeytar(message: string): KeytarModule {
  const fail = async () => {
    throw new Error(message);
  };
  return { getPassword: fail, setPassword: fail, deletePassword: fail };
}

describe('openSecretStore fallback', () => {
  it('falls back to memory, saying why, when keytar is not installed', async () => {
    const store = await openSecretStore(() => {
      throw Object.assign(new Error("Cannot find module 'keytar'"), { code: 'MODULE_NOT_FOUND' });
    });
    expect(store.status.kind).toBe('memory');
    expect(store.status.reason).toMatch(/not installed/);
    await store.set('svc', 'acct', 's3cret');
    expect(await store.get('svc', 'acct')).toBe('s3cret');
    expect(await store.delete('svc', 'acct')).toBe(true);
    expect(await store.get('svc', 'acct')).toBeNull();
  });

  it.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', /session bus/],
    ['Could not connect: No such file or directory', /not answering/],
    ['The name org.freedesktop.secrets was not provided by any .service files', /Secret Service/],
    ['Object does not exist at path "/org/freedesktop/secrets/collection/login"', /login keyring/],
    ['Cannot create an item in a locked collection', /locked/],
  ])('explains "%s"', async (message, reason) => {
    const store = await openSecretStore(() => failingKeytar(message));
    expect(store.status.kind).toBe('memory');
    expect(store.status.reason).toMatch(reason);
    expect(store.status.reason).toMatch(/memory only/);
  });

  it('uses the keychain when a write, read and delete all work', async () => {
    const entries = new Map<string, string>();
    const keytar: KeytarModule = {
      getPassword: async (s, a) => entries.get(`${s}/${a}`) ?? null,
      setPassword: async (s, a, p) => void entries.set(`${s}/${a}`, p),
      deletePassword: async (s, a) => entries.delete(`${s}/${a}`),
    };
    const store = await openSecretStore(() => keytar);
    expect(store.status).toEqual({ kind: 'keychain' });
    expect(entries.size).toBe(0);
  });
});

describe('a keychain that never answers', () => {
  it('does not hold up the start: memory, with the reason, after the time limit', async () => {
    const never = () => new Promise<never>(() => undefined);
    const hanging: KeytarModule = { getPassword: never, setPassword: never, deletePassword: never };
    const started = Date.now();
    const store = await openSecretStore(() => hanging, 50);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(store.status).toEqual({ kind: 'memory', reason: expect.stringMatching(/did not answer in time/) });
  });
});
