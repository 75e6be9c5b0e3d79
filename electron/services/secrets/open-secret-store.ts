import { randomBytes } from 'node:crypto';
import { KeytarSecretStore, loadKeytar, type KeytarModule } from './keytar-secret-store.js';
import { MemorySecretStore } from './memory-secret-store.js';
import { ResilientSecretStore } from './resilient-secret-store.js';
import { explainKeychainFailure } from './keychain-errors.js';

import type { SecretStore } from './secret-store.js';

const PROBE_SERVICE = 'Capacity Desk (probe)';
/** Per process and call: two app processes starting together must not read each other's probe. */
const probeAccount = () => `keychain-check-${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Opens the OS keychain, proving it answers with a real write, read and delete
 * (a read alone succeeds on a locked collection). Falls back to memory with the
 * reason in plain words.
 */
export async function openSecretStore(load: () => KeytarModule = loadKeytar): Promise<SecretStore> {
  let keytar: KeytarModule;
  try {
    keytar = load();
  } catch (error) {
    return new MemorySecretStore(explainKeychainFailure(error));
  }
  try {
    const account = probeAccount();
    const marker = randomBytes(16).toString('hex');
    await keytar.setPassword(PROBE_SERVICE, account, marker);
    const read = await keytar.getPassword(PROBE_SERVICE, account);
    await keytar.deletePassword(PROBE_SERVICE, account);
    if (read !== marker) return new MemorySecretStore('The system keychain did not return what was stored in it.');
    return new ResilientSecretStore(new KeytarSecretStore(keytar));
  } catch (error) {
    return new MemorySecretStore(explainKeychainFailure(error));
  }
}
