import { safeStorage } from 'electron';
import type { SafeStoragePort } from '../services/secrets/safe-storage-secret-store.js';

/** Electron's safeStorage for the secret store's second tier; call after 'ready' (the Linux backend is 'unknown' before). */
export function electronSafeStorage(): SafeStoragePort {
  return {
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
    encryptString: (plainText) => safeStorage.encryptString(plainText),
    decryptString: (encrypted) => safeStorage.decryptString(encrypted),
    // getSelectedStorageBackend is Linux-only; macOS (Keychain) and Windows (DPAPI) always use the OS's key.
    backend: process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os',
  };
}
