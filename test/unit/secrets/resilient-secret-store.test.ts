import { describe, expect, it } from 'vitest';
import { ResilientSecretStore } from '../../../electron/services/secrets/resilient-secret-store.js';
import { SwitchableSecretStore } from '../../support/switchable-secret-store.js';

describe('ResilientSecretStore', () => {
  it('uses the keychain while it answers, then memory, once, saying why', async () => {
    const keychain = new SwitchableSecretStore();
    const store = new ResilientSecretStore(keychain);
    const degraded: string[] = [];
    store.onDegraded((status) => degraded.push(status.reason ?? ''));
    await store.set('svc', 'a', 'one');
    expect(await keychain.inner.get('svc', 'a')).toBe('one');
    expect(store.status.kind).toBe('keychain');

    keychain.failing = true;
    await store.set('svc', 'b', 'two');
    expect(store.status.kind).toBe('memory');
    expect(store.status.reason).toMatch(/locked/);
    expect(await store.get('svc', 'b')).toBe('two');
    await store.set('svc', 'c', 'three');
    expect(degraded).toHaveLength(1);
    expect(await keychain.inner.get('svc', 'b')).toBeNull();
  });
});
