import type { KeychainStatus } from '../../../shared/ipc/session.js';

/** Where access tokens (and later the cache key) are kept. */
export interface SecretStore {
  readonly status: KeychainStatus;
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<boolean>;
}

/**
 * Keychain naming, documented in README: one service per profile so that
 * entries of different environments never collide, one account per user.
 */
export const KEYCHAIN_SERVICE_PREFIX = 'Capacity Desk';

export function keychainService(profileId: string): string {
  return `${KEYCHAIN_SERVICE_PREFIX} (${profileId})`;
}
