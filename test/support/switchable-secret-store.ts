import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { FixedSecretStore } from './fixed-key-store.js';

/**
 * A keychain that works until the test says it stops, then fails the way a
 * locked GNOME keyring does. Wrapped in the app's ResilientSecretStore, it
 * drives the real degradation path.
 */
export class SwitchableSecretStore implements SecretStore {
  readonly status = { kind: 'keychain' as const };
  readonly inner = new FixedSecretStore();
  failing = false;

  #check(): void {
    if (this.failing) throw new Error('Cannot create an item in a locked collection');
  }

  async get(service: string, account: string) {
    this.#check();
    return this.inner.get(service, account);
  }

  async set(service: string, account: string, secret: string) {
    this.#check();
    return this.inner.set(service, account, secret);
  }

  async delete(service: string, account: string) {
    this.#check();
    return this.inner.delete(service, account);
  }
}
