import { openSecretStore } from '../../electron/services/secrets/open-secret-store.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';

/**
 * The browser suite runs two workers at once, each with apps signed in as the same sandbox users: on
 * one real keychain they shared every entry (the kept session's token, the replica's and own data's
 * keys), so an app restarted in one worker restored a token another worker's sandbox had issued, and
 * asked for the password again (CI met it once). Each Playwright worker keeps its entries under a
 * name of its own; a worker runs one test at a time. Outside Playwright the names are the app's own.
 *
 * A worker's shared app (test/e2e/fixtures.ts) lives beside the apps its tests start one by one, signed
 * in as the same users: it has names of its own too (`scope`), or a test's sign-in would replace the
 * replica key its copy is encrypted with, and a test's sign-out would remove its kept session.
 */
const WORKER = process.env['TEST_WORKER_INDEX'];

/** The keychain service name an app started by the test app uses in this worker. */
export function workerKeychainService(service: string, scope?: string): string {
  if (WORKER === undefined) return service;
  return scope === undefined ? `${service} [test worker ${WORKER}]` : `${service} [test worker ${WORKER}, ${scope}]`;
}

/** The real keychain (as the app opens it), its entries named for this worker; undefined outside Playwright. */
export async function workerKeychain(scope?: string): Promise<SecretStore | undefined> {
  if (WORKER === undefined) return undefined;
  const keychain = await openSecretStore();
  const named = (service: string) => workerKeychainService(service, scope);
  return {
    get status() {
      return keychain.status;
    },
    get: (service, account) => keychain.get(named(service), account),
    set: (service, account, secret) => keychain.set(named(service), account, secret),
    delete: (service, account) => keychain.delete(named(service), account),
  };
}
