import { randomBytes } from 'node:crypto';
import { KeytarSecretStore, loadKeytar, type KeytarModule } from './keytar-secret-store.js';
import { MemorySecretStore } from './memory-secret-store.js';
import { ResilientSecretStore } from './resilient-secret-store.js';
import { explainKeychainFailure } from './keychain-errors.js';
import type { SecretStore } from './secret-store.js';

/**
 * How long the keychain may take to answer the probe. A desktop without a
 * session bus can make libsecret try to start one and wait on it for a long
 * time; the app must start anyway.
 */
export const KEYCHAIN_PROBE_TIMEOUT_MS = 5_000;

const PROBE_SERVICE = 'Capacity Desk (probe)';
/** Per process and call: two app processes starting together must not read each other's probe. */
const probeAccount = () => `keychain-check-${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Opens the OS keychain, proving it answers with a real write, read and delete
 * (a read alone succeeds on a locked collection). Falls back to memory with the
 * reason in plain words.
 */
export async function openSecretStore(
  load: () => KeytarModule = loadKeytar,
  timeoutMs: number = KEYCHAIN_PROBE_TIMEOUT_MS,
): Promise<SecretStore> {
  let keytar: KeytarModule;
  try {
    keytar = load();
  } catch (error) {
    return new MemorySecretStore(explainKeychainFailure(error));
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tooSlow = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const answer = await Promise.race([probe(keytar), tooSlow]);
    if (answer === 'timeout') {
      return new MemorySecretStore(
        'The system keychain did not answer in time. Your session is kept in memory only and ends when the app closes.',
      );
    }
    if (!answer) return new MemorySecretStore('The system keychain did not return what was stored in it.');
    return new ResilientSecretStore(new KeytarSecretStore(keytar));
  } catch (error) {
    return new MemorySecretStore(explainKeychainFailure(error));
  } finally {
    clearTimeout(timer);
  }
}

/** A real write, read and delete of a throw-away entry; true when all three work. */
async function probe(keytar: KeytarModule): Promise<boolean> {
  const account = probeAccount();
  const marker = randomBytes(16).toString('hex');
  await keytar.setPassword(PROBE_SERVICE, account, marker);
  const read = await keytar.getPassword(PROBE_SERVICE, account);
  await keytar.deletePassword(PROBE_SERVICE, account);
  return read === marker;
}
