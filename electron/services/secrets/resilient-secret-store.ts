import type { KeychainStatus } from '../../../shared/ipc/session.js';
import { MemorySecretStore } from './memory-secret-store.js';
import { explainKeychainFailure } from './keychain-errors.js';
import type { SecretStore } from './secret-store.js';

/**
 * The keychain as the app uses it: when the OS keychain stops answering in the
 * middle of a session (keyring locked, Secret Service gone), the app carries on
 * with secrets in memory, says why, and tells whoever listens, instead of
 * failing the user's sign-in or sync.
 */
export class ResilientSecretStore implements SecretStore {
  #fallback: MemorySecretStore | null = null;
  readonly #listeners = new Set<(status: KeychainStatus) => void>();

  constructor(private readonly keychain: SecretStore) {}

  get status(): KeychainStatus {
    return this.#fallback?.status ?? this.keychain.status;
  }

  /** Called once, when the keychain is given up for this run. */
  onDegraded(listener: (status: KeychainStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get(service: string, account: string): Promise<string | null> {
    return this.#use([service, account], (store) => store.get(service, account));
  }

  set(service: string, account: string, secret: string): Promise<void> {
    return this.#use([service, account, secret], (store) => store.set(service, account, secret));
  }

  delete(service: string, account: string): Promise<boolean> {
    return this.#use([service, account], (store) => store.delete(service, account));
  }

  async #use<T>(args: readonly unknown[], work: (store: SecretStore) => Promise<T>): Promise<T> {
    // A bad argument is this app's mistake, not the keychain's: it must never cost the keychain for the rest of the run.
    if (!args.every((arg) => typeof arg === 'string' && arg.length > 0)) {
      throw new TypeError('Keychain entries are named and filled with non-empty text only.');
    }
    if (this.#fallback) return work(this.#fallback);
    try {
      return await work(this.keychain);
    } catch (error) {
      this.#fallback = new MemorySecretStore(explainKeychainFailure(error));
      for (const listener of this.#listeners) listener(this.#fallback.status);
      return work(this.#fallback);
    }
  }
}
