import { randomBytes } from 'node:crypto';
import { KeytarSecretStore, loadKeytar, type KeytarModule } from './keytar-secret-store.js';
import { MemorySecretStore } from './memory-secret-store.js';
import { ResilientSecretStore } from './resilient-secret-store.js';
import { explainKeychainFailure } from './keychain-errors.js';
import { SafeStorageSecretStore, safeStorageUnusable, type SafeStoragePort } from './safe-storage-secret-store.js';
import type { SecretStore } from './secret-store.js';

/** Electron's safeStorage and the data folder its file goes in: the tier after the keychain. */
export interface SafeStorageTier {
  readonly port: SafeStoragePort;
  readonly dataDir: string;
}

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
 * (a read alone succeeds on a locked collection). When it cannot be used, the
 * next tier is Electron's safeStorage (only where its backend really protects
 * secrets, as VS Code and Signal do), then memory; the reason is in plain words.
 * keytar stays first: the customer asked for it, and it is the OS keychain itself.
 */
export async function openSecretStore(
  load: () => KeytarModule = loadKeytar,
  timeoutMs: number = KEYCHAIN_PROBE_TIMEOUT_MS,
  safeStorage?: SafeStorageTier,
): Promise<SecretStore> {
  const fallBack = (reason: string): SecretStore => nextTier(reason, safeStorage);
  let keytar: KeytarModule;
  try {
    keytar = load();
  } catch (error) {
    return fallBack(explainKeychainFailure(error));
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tooSlow = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const answer = await Promise.race([probe(keytar), tooSlow]);
    if (answer === 'timeout') {
      return fallBack('The system keychain did not answer in time. Your session is kept in memory only and ends when the app closes.');
    }
    if (!answer) return fallBack('The system keychain did not return what was stored in it.');
    return new ResilientSecretStore(new KeytarSecretStore(keytar));
  } catch (error) {
    return fallBack(explainKeychainFailure(error));
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

/** Memory-only messages end with "kept in memory only…"; with safeStorage the session is kept, so only the first sentence stays. */
function keychainPart(reason: string): string {
  return reason.replace(/\s*Your session is kept in memory only and ends when the app closes\.$/, '');
}

/**
 * safeStorage where it is real (not Linux's `basic_text`) and answers a round
 * trip; otherwise memory, saying why both were passed over.
 */
function nextTier(reason: string, safeStorage: SafeStorageTier | undefined): SecretStore {
  if (!safeStorage) return new MemorySecretStore(reason);
  const unusable = safeStorageUnusable(safeStorage.port) ?? roundTripFailure(safeStorage.port);
  if (unusable) return new MemorySecretStore(`${keychainPart(reason)} Not saved with the OS's encryption either: ${unusable}. Your session is kept in memory only and ends when the app closes.`);
  return new ResilientSecretStore(new SafeStorageSecretStore(safeStorage.port, safeStorage.dataDir, keychainPart(reason)));
}

function roundTripFailure(port: SafeStoragePort): string | null {
  try {
    const marker = randomBytes(16).toString('hex');
    return port.decryptString(port.encryptString(marker)) === marker ? null : 'it did not return what it encrypted';
  } catch (error) {
    return `it failed (${error instanceof Error ? error.message : String(error)})`;
  }
}
