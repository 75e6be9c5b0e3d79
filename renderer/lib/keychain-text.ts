import type { KeychainStatus } from '../../shared/ipc/session.js';

/** Which store holds the session, in the words the sign-in view shows. */
export function sessionStoreText(keychain: KeychainStatus): string {
  if (keychain.kind === 'keychain') return 'Saved in the system keychain.';
  if (keychain.kind === 'safe-storage') {
    return `Saved with the OS's encryption (safeStorage), in a file only you can read.${keychain.reason ? ` The system keychain is not used: ${keychain.reason}` : ''}`;
  }
  return `Not saved: ${keychain.reason ?? 'The system keychain is not available.'}`;
}
