import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { loadKeytar, type KeytarModule } from '../../electron/services/secrets/keytar-secret-store.js';
import { openSecretStore } from '../../electron/services/secrets/open-secret-store.js';

/**
 * The keychain tests run for real under scripts/with-keychain.sh (npm test
 * and CI set CAPACITY_DESK_KEYCHAIN=required, and then a missing keychain is
 * a failure). Run bare, e.g. `npx vitest` on a machine without a Secret
 * Service, they are skipped and say why.
 */
export const KEYCHAIN_REQUIRED = process.env.CAPACITY_DESK_KEYCHAIN === 'required';

export async function realKeychain(): Promise<{ store: SecretStore; keytar: KeytarModule } | { store: null; reason: string }> {
  const store = await openSecretStore();
  if (store.status.kind !== 'keychain') {
    const reason = store.status.reason ?? 'no keychain';
    if (KEYCHAIN_REQUIRED) throw new Error(`A real keychain is required here but is not usable: ${reason}`);
    return { store: null, reason };
  }
  return { store: store as SecretStore, keytar: loadKeytar() };
}
