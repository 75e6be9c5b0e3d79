import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KeytarModule } from '../../../electron/services/secrets/keytar-secret-store.js';
import { openSecretStore } from '../../../electron/services/secrets/open-secret-store.js';
import { SAFE_STORAGE_FILE, type SafeStoragePort } from '../../../electron/services/secrets/safe-storage-secret-store.js';

/**
 * The secret store's tiers: keychain (keytar), then Electron's safeStorage,
 * then memory. safeStorage is a fake port here (Electron cannot run); its file
 * is real.
 */
const noKeytar = () => {
  throw Object.assign(new Error("Cannot find module 'keytar'"), { code: 'MODULE_NOT_FOUND' });
};

/** Reversible, and visibly not the plain text: enough to prove the store never writes a secret in clear. */
function fakeSafeStorage(backend = 'gnome_libsecret', available = true): SafeStoragePort & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    backend,
    isEncryptionAvailable: () => available,
    encryptString: (plain) => {
      calls.push('encrypt');
      return Buffer.from(`sealed:${Buffer.from(plain).toString('hex')}`);
    },
    decryptString: (blob) => {
      calls.push('decrypt');
      const text = blob.toString();
      if (!text.startsWith('sealed:')) throw new Error('not sealed by this key');
      return Buffer.from(text.slice('sealed:'.length), 'hex').toString();
    },
  };
}

const dataDir = () => mkdtemp(join(tmpdir(), 'capacity-desk-safe-storage-'));

describe('secret store tiers', () => {
  it('keeps the session with safeStorage when the keychain cannot be used, in a 0600 file with no secret in clear', async () => {
    const dir = await dataDir();
    const store = await openSecretStore(noKeytar, 1_000, { port: fakeSafeStorage(), dataDir: dir });
    expect(store.status).toEqual({ kind: 'safe-storage', reason: 'The keychain module is not installed in this build.' });
    await store.set('Capacity Desk (sandbox)', 'alex', 'token-s3cret');
    expect(await store.get('Capacity Desk (sandbox)', 'alex')).toBe('token-s3cret');
    const file = join(dir, SAFE_STORAGE_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toContain('token-s3cret');

    // After a restart, the same file and key give the session back.
    const again = await openSecretStore(noKeytar, 1_000, { port: fakeSafeStorage(), dataDir: dir });
    expect(await again.get('Capacity Desk (sandbox)', 'alex')).toBe('token-s3cret');
    expect(await again.delete('Capacity Desk (sandbox)', 'alex')).toBe(true);
    expect(await again.get('Capacity Desk (sandbox)', 'alex')).toBeNull();
    expect(await again.delete('Capacity Desk (sandbox)', 'alex')).toBe(false);
  });

  it("passes over Linux's basic_text backend (a key built into Chromium) and keeps the session in memory, saying why", async () => {
    const dir = await dataDir();
    const port = fakeSafeStorage('basic_text');
    const store = await openSecretStore(noKeytar, 1_000, { port, dataDir: dir });
    expect(store.status.kind).toBe('memory');
    expect(store.status.reason).toMatch(/not installed.*"basic_text".*memory only/);
    await store.set('svc', 'acct', 'secret');
    expect(port.calls).toEqual([]);
    await expect(stat(join(dir, SAFE_STORAGE_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('passes over safeStorage when encryption is unavailable, or when it does not give back what it sealed', async () => {
    const unavailable = await openSecretStore(noKeytar, 1_000, { port: fakeSafeStorage('kwallet5', false), dataDir: await dataDir() });
    expect(unavailable.status.reason).toMatch(/safeStorage\) is not available/);
    const broken: SafeStoragePort = { ...fakeSafeStorage(), decryptString: () => 'something else' };
    const store = await openSecretStore(noKeytar, 1_000, { port: broken, dataDir: await dataDir() });
    expect(store.status.kind).toBe('memory');
    expect(store.status.reason).toMatch(/did not return what it encrypted/);
  });

  it('uses the keychain first when it works: safeStorage is not touched', async () => {
    const entries = new Map<string, string>();
    const keytar: KeytarModule = {
      getPassword: async (s, a) => entries.get(`${s}/${a}`) ?? null,
      setPassword: async (s, a, p) => void entries.set(`${s}/${a}`, p),
      deletePassword: async (s, a) => entries.delete(`${s}/${a}`),
    };
    const port = fakeSafeStorage();
    const store = await openSecretStore(() => keytar, 1_000, { port, dataDir: await dataDir() });
    expect(store.status).toEqual({ kind: 'keychain' });
    expect(port.calls).toEqual([]);
  });

  it('keeps every one of many parallel writes (one read-modify-write at a time)', async () => {
    const dir = await dataDir();
    const store = await openSecretStore(noKeytar, 1_000, { port: fakeSafeStorage(), dataDir: dir });
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.set('svc', `user-${index}`, `secret-${index}`)));
    const reopened = await openSecretStore(noKeytar, 1_000, { port: fakeSafeStorage(), dataDir: dir });
    for (let index = 0; index < 20; index += 1) expect(await reopened.get('svc', `user-${index}`)).toBe(`secret-${index}`);
  });

  it('a file it did not write is left alone: the session falls back to memory, saying so', async () => {
    const dir = await dataDir();
    const file = join(dir, SAFE_STORAGE_FILE);
    await writeFile(file, '{"not":"ours"}');
    const store = await openSecretStore(noKeytar, 1_000, { port: fakeSafeStorage(), dataDir: dir });
    expect(store.status.kind).toBe('safe-storage');
    await store.set('svc', 'acct', 'secret');
    expect(store.status.kind).toBe('memory');
    expect(await store.get('svc', 'acct')).toBe('secret');
    expect(await readFile(file, 'utf8')).toBe('{"not":"ours"}');
  });
});

describe('safe-storage file: entry names', () => {
  const service = 'Capacity Desk (acme-production)';
  const account = 'jordan.lee@example.com';

  it('names entries by a keyed hash: neither the environment nor the username is in the file', async () => {
    const dir = await dataDir();
    const port = fakeSafeStorage();
    const store = await openSecretStore(noKeytar, 1_000, { port, dataDir: dir });
    await store.set(service, account, 'token-1');
    await store.set('Capacity Desk cache (acme-production)', account, 'key-1');
    const text = await readFile(join(dir, SAFE_STORAGE_FILE), 'utf8');
    for (const clear of ['acme-production', 'jordan', 'example.com', 'Capacity Desk']) expect(text).not.toContain(clear);
    expect(JSON.parse(text)).toMatchObject({ version: 2 });
    const again = await openSecretStore(noKeytar, 1_000, { port, dataDir: dir });
    expect(await again.get(service, account)).toBe('token-1');
    expect(await again.delete('Capacity Desk cache (acme-production)', account)).toBe(true);
    expect(await again.get('Capacity Desk cache (acme-production)', account)).toBeNull();
  });

  it('migrates a file of the earlier version, whose entry names were in clear, as soon as it is read', async () => {
    const dir = await dataDir();
    const port = fakeSafeStorage();
    const sealed = port.encryptString('token-old').toString('base64');
    await writeFile(join(dir, SAFE_STORAGE_FILE), JSON.stringify({ version: 1, entries: { [JSON.stringify([service, account])]: sealed } }), { mode: 0o600 });
    const store = await openSecretStore(noKeytar, 1_000, { port, dataDir: dir });
    expect(await store.get(service, account)).toBe('token-old');
    const text = await readFile(join(dir, SAFE_STORAGE_FILE), 'utf8');
    expect(text).not.toContain('acme-production');
    expect(text).not.toContain('jordan');
    expect(JSON.parse(text)).toMatchObject({ version: 2 });
    expect((await stat(join(dir, SAFE_STORAGE_FILE))).mode & 0o777).toBe(0o600);
  });
});
