import type { KeychainStatus } from '../../../shared/ipc/session.js';
import type { SecretStore } from './secret-store.js';

/**
 * Used only when no keychain answers: secrets live as long as the process, and
 * the status says why, so the UI can tell the user the session will not be kept.
 */
export class MemorySecretStore implements SecretStore {
  readonly status: KeychainStatus;
  readonly #entries = new Map<string, string>();

  constructor(reason: string) {
    this.status = { kind: 'memory', reason };
  }

  async get(service: string, account: string): Promise<string | null> {
    return this.#entries.get(key(service, account)) ?? null;
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    this.#entries.set(key(service, account), secret);
  }

  async delete(service: string, account: string): Promise<boolean> {
    return this.#entries.delete(key(service, account));
  }
}

function key(service: string, account: string): string {
  return JSON.stringify([service, account]);
}
