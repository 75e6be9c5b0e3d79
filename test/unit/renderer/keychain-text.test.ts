import { describe, expect, it } from 'vitest';
import { sessionStoreText } from '../../../renderer/lib/keychain-text.js';

describe('where the session is kept, in words', () => {
  it('names each tier', () => {
    expect(sessionStoreText({ kind: 'keychain' })).toBe('Saved in the system keychain.');
    expect(sessionStoreText({ kind: 'safe-storage' })).toBe("Saved with the OS's encryption (safeStorage), in a file only you can read.");
    expect(sessionStoreText({ kind: 'safe-storage', reason: 'The keychain module is not installed in this build.' })).toBe(
      "Saved with the OS's encryption (safeStorage), in a file only you can read. The system keychain is not used: The keychain module is not installed in this build.",
    );
    expect(sessionStoreText({ kind: 'memory', reason: 'The keyring is locked.' })).toBe('Not saved: The keyring is locked.');
  });
});
