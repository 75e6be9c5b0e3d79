import type { SecretStore } from '../../electron/services/secrets/secret-store.js';

/**
 * A keychain stand-in for tests that must run in child processes or many
 * times over (crash-safety loop, benchmarks), where the real keychain would
 * be the thing under test. The real keychain has its own tests.
 */
export class FixedSecretStore implements SecretStore {
  readonly status = { kind: 'keychain' as const };
  readonly entries = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.entries.set(k, v);
  }

  static key(service: string, account: string): string {
    return `${service}\n${account}`;
  }

  async get(service: string, account: string): Promise<string | null> {
    return this.entries.get(FixedSecretStore.key(service, account)) ?? null;
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    this.entries.set(FixedSecretStore.key(service, account), secret);
  }

  async delete(service: string, account: string): Promise<boolean> {
    return this.entries.delete(FixedSecretStore.key(service, account));
  }
}
