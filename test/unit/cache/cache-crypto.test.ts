import { describe, expect, it } from 'vitest';
import { decryptPayload, encryptPayload, newCacheKey } from '../../../electron/services/cache/cache-crypto.js';

describe('cache encryption', () => {
  const key = newCacheKey();
  const plaintext = Buffer.from(JSON.stringify({ cidrId: 'sc_1001', policyName: 'Payments' }));

  it('round-trips and hides the plaintext', () => {
    const file = encryptPayload(key, 'owner-a', plaintext);
    expect(file.includes(Buffer.from('sc_1001'))).toBe(false);
    expect(file.includes(Buffer.from('Payments'))).toBe(false);
    expect(decryptPayload(key, 'owner-a', file)?.equals(plaintext)).toBe(true);
  });

  it('uses a fresh IV each time', () => {
    expect(encryptPayload(key, 'a', plaintext).equals(encryptPayload(key, 'a', plaintext))).toBe(false);
  });

  it('refuses a wrong key, another owner, a flipped bit, a truncated file and a foreign file', () => {
    const file = encryptPayload(key, 'owner-a', plaintext);
    expect(decryptPayload(newCacheKey(), 'owner-a', file)).toBeNull();
    expect(decryptPayload(key, 'owner-b', file)).toBeNull();
    const flipped = Buffer.from(file);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1;
    expect(decryptPayload(key, 'owner-a', flipped)).toBeNull();
    expect(decryptPayload(key, 'owner-a', file.subarray(0, file.length - 5))).toBeNull();
    expect(decryptPayload(key, 'owner-a', file.subarray(0, 20))).toBeNull();
    expect(decryptPayload(key, 'owner-a', Buffer.from('{"plain":"json"}'))).toBeNull();
  });
});
