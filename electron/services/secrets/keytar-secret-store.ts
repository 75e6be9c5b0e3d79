import { createRequire } from 'node:module';
import type { KeychainStatus } from '../../../shared/ipc/session.js';
import type { SecretStore } from './secret-store.js';

/** The part of keytar this app uses. */
export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export class KeytarSecretStore implements SecretStore {
  readonly status: KeychainStatus = { kind: 'keychain' };

  constructor(private readonly keytar: KeytarModule) {}

  get(service: string, account: string): Promise<string | null> {
    return this.keytar.getPassword(service, account);
  }

  set(service: string, account: string, secret: string): Promise<void> {
    return this.keytar.setPassword(service, account, secret);
  }

  delete(service: string, account: string): Promise<boolean> {
    return this.keytar.deletePassword(service, account);
  }
}

/** keytar is optional: a build without libsecret still installs and runs. */
export function loadKeytar(): KeytarModule {
  const require = createRequire(import.meta.url);
  return require('keytar') as KeytarModule;
}
