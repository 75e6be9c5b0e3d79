import { afterAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';

const keychain = await realKeychain();
const service = `Capacity Desk (keychain-test-${process.pid})`;

describe.skipIf(keychain.store === null && !KEYCHAIN_REQUIRED)('the real OS keychain', () => {
  afterAll(async () => {
    if (keychain.store) await keychain.store.delete(service, 'someone@example.com');
  });

  it('stores, reads and deletes a real entry', async () => {
    if (!keychain.store) throw new Error('unreachable');
    const { store, keytar } = keychain;
    await store.set(service, 'someone@example.com', 'value-1');
    // Read back through keytar itself, not our wrapper, to prove it reached the keychain.
    expect(await keytar.getPassword(service, 'someone@example.com')).toBe('value-1');
    await store.set(service, 'someone@example.com', 'value-2');
    expect(await store.get(service, 'someone@example.com')).toBe('value-2');
    expect(await store.delete(service, 'someone@example.com')).toBe(true);
    expect(await keytar.getPassword(service, 'someone@example.com')).toBeNull();
    expect(await store.delete(service, 'someone@example.com')).toBe(false);
  });
});

describe.skipIf(keychain.store === null && !KEYCHAIN_REQUIRED)('opening the keychain', () => {
  it('gives every one of many simultaneous openers the real keychain (their probes never collide)', async () => {
    const { openSecretStore } = await import('../../electron/services/secrets/open-secret-store.js');
    const stores = await Promise.all(Array.from({ length: 8 }, () => openSecretStore()));
    expect(stores.map((s) => s.status.kind)).toEqual(Array(8).fill('keychain'));
  });
});

describe.skipIf(keychain.store === null && !KEYCHAIN_REQUIRED)('the secret store tiers on a real keychain', () => {
  it('keeps the real keychain first even where safeStorage is offered, and never touches safeStorage', async () => {
    const { mkdtemp, readdir } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openSecretStore } = await import('../../electron/services/secrets/open-secret-store.js');
    const dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-tiers-'));
    const used: string[] = [];
    const port = {
      backend: 'gnome_libsecret',
      isEncryptionAvailable: () => (used.push('available'), true),
      encryptString: (text: string) => (used.push('encrypt'), Buffer.from(text)),
      decryptString: (blob: Buffer) => (used.push('decrypt'), blob.toString()),
    };
    const store = await openSecretStore(undefined, undefined, { port, dataDir });
    expect(store.status).toEqual({ kind: 'keychain' });
    await store.set(service, 'tiers@example.com', 'value');
    if (!keychain.store) throw new Error('unreachable');
    expect(await keychain.keytar.getPassword(service, 'tiers@example.com')).toBe('value');
    expect(await store.delete(service, 'tiers@example.com')).toBe(true);
    expect(used).toEqual([]);
    expect(await readdir(dataDir)).toEqual([]);
  });
});
