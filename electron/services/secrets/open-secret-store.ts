import { randomBytes } from 'node:crypto';
import { KeytarSecretStore, loadKeytar, type KeytarModule } from './keytar-secret-store.js';
import { MemorySecretStore } from './memory-secret-store.js';
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
    return new KeytarSecretStore(keytar);
  } catch (error) {
    return new MemorySecretStore(explainKeychainFailure(error));
  }
}

/** keytar's messages, mapped to what a person can do about them. */
export function explainKeychainFailure(error: unknown): string {
  const text = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` : String(error);
  const known: Array<[RegExp, string]> = [
    [/MODULE_NOT_FOUND|Cannot find module/i, 'The keychain module is not installed in this build.'],
    [/autolaunch D-Bus without X11/i, 'No desktop session bus is running, so the system keychain cannot be reached.'],
    [/Could not connect/i, 'The desktop session bus is not answering, so the system keychain cannot be reached.'],
    [/org\.freedesktop\.secrets was not provided/i, 'No keychain service (Secret Service, e.g. GNOME Keyring) is installed or running.'],
    [/collection\/login/i, 'The login keyring does not exist or is not unlocked.'],
    [/locked collection/i, 'The keyring is locked.'],
  ];
  const hit = known.find(([pattern]) => pattern.test(text));
  const base = hit ? hit[1] : 'The system keychain is not available.';
  return `${base} Your session is kept in memory only and ends when the app closes.`;
}
