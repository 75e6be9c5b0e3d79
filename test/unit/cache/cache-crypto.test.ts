import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decryptPayload, encryptPayload, newCacheKey, openCacheFile } from '../../../electron/services/cache/cache-crypto.js';

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

  it('says why a file on disk could not be opened: missing, cut short, damaged or another format', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-crypto-'));
    try {
      const file = encryptPayload(key, 'owner-a', plaintext);
      const at = (name: string) => join(dir, name);
      await writeFile(at('ok.bin'), file);
      const flipped = Buffer.from(file);
      flipped[flipped.length - 3]! ^= 0x10;
      await writeFile(at('flipped.bin'), flipped);
      await writeFile(at('short.bin'), file.subarray(0, 20));
      const newer = Buffer.from(file);
      newer.write('CDCACHE2', 0, 'ascii');
      await writeFile(at('newer.bin'), newer);

      const opened = await openCacheFile(key, 'owner-a', at('ok.bin'));
      expect(opened.ok && opened.bytes.equals(plaintext)).toBe(true);
      expect(await openCacheFile(key, 'owner-a', at('absent.bin'))).toEqual({ ok: false, problem: 'missing' });
      expect(await openCacheFile(key, 'owner-a', at('flipped.bin'))).toEqual({ ok: false, problem: 'damaged' });
      expect(await openCacheFile(newCacheKey(), 'owner-a', at('ok.bin'))).toEqual({ ok: false, problem: 'damaged' });
      expect(await openCacheFile(key, 'owner-a', at('short.bin'))).toEqual({ ok: false, problem: 'incomplete' });
      expect(await openCacheFile(key, 'owner-a', at('newer.bin'))).toEqual({ ok: false, problem: 'incompatible' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
