import { createCipheriv, createDecipheriv, randomBytes, type DecipherGCM } from 'node:crypto';
import { open } from 'node:fs/promises';
import { errorCode, retryTransient } from '../settings/transient-fs.js';

/**
 * The cache file format: a magic header, then AES-256-GCM over the payload.
 * The additional authenticated data names the owner and the kind of entry, so
 * a file copied from another user or kind fails to open like a tampered one.
 *
 *   "CDCACHE1" (8) | iv (12) | tag (16) | ciphertext
 */
const MAGIC = Buffer.from('CDCACHE1', 'ascii');
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export function encryptPayload(key: Buffer, aad: string, plaintext: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), ciphertext]);
}

const HEADER_BYTES = MAGIC.length + IV_BYTES + TAG_BYTES;
/** Large enough to amortise syscalls, small enough to overlap reading with decrypting. */
const READ_CHUNK_BYTES = 8 * 1024 * 1024;

/** Checks the header and prepares the decipher; null when it is not our format. */
function decipherFor(key: Buffer, aad: string, header: Buffer): DecipherGCM | null {
  if (header.length < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const decipher = createDecipheriv('aes-256-gcm', key, header.subarray(MAGIC.length, MAGIC.length + IV_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(header.subarray(MAGIC.length + IV_BYTES, HEADER_BYTES));
  return decipher;
}

/** Returns null for anything that is not a file we wrote with this key and owner. */
export function decryptPayload(key: Buffer, aad: string, file: Buffer): Buffer | null {
  try {
    const decipher = decipherFor(key, aad, file.subarray(0, HEADER_BYTES));
    if (!decipher) return null;
    const plaintext = decipher.update(file.subarray(HEADER_BYTES));
    decipher.final();
    return plaintext;
  } catch {
    return null;
  }
}

/**
 * Why a cache file could not be opened, told apart only as far as the bytes
 * allow: GCM cannot tell a flipped byte from a different key, so both are
 * `damaged`. `unavailable`: the file system would not let it be read right
 * now (held by another program, too many open files...): says nothing about
 * the file, which must be left as it is.
 */
export type OpenProblem = 'missing' | 'incomplete' | 'damaged' | 'incompatible' | 'unavailable';
export type OpenedFile = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly problem: OpenProblem };

/** The magic of any version of our format: another version is `incompatible`, not `damaged`. */
const FORMAT_FAMILY = Buffer.from('CDCACHE', 'ascii');

/**
 * Reads and decrypts a cache file, reading the next chunk from disk while the
 * current one is decrypted. Nothing is returned unless the GCM tag verifies at
 * the end; otherwise says why: missing, cut short, failed authentication, or
 * written in another format version.
 */
export async function openCacheFile(key: Buffer, aad: string, path: string): Promise<OpenedFile> {
  let handle;
  try {
    handle = await retryTransient(() => open(path, 'r'));
  } catch (error) {
    return { ok: false, problem: errorCode(error) === 'ENOENT' ? 'missing' : 'unavailable' };
  }
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(HEADER_BYTES);
    if (size < HEADER_BYTES || (await handle.read(header, 0, HEADER_BYTES, 0)).bytesRead !== HEADER_BYTES) {
      return { ok: false, problem: 'incomplete' };
    }
    const decipher = decipherFor(key, aad, header);
    if (!decipher) {
      return { ok: false, problem: header.subarray(0, FORMAT_FAMILY.length).equals(FORMAT_FAMILY) ? 'incompatible' : 'damaged' };
    }
    const file = handle;
    const plaintext = Buffer.allocUnsafe(size - HEADER_BYTES);
    const readChunk = async (position: number) => {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size - position));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
      return chunk.subarray(0, bytesRead);
    };
    let position = HEADER_BYTES;
    let written = 0;
    let pending: Promise<Buffer> | null = readChunk(position);
    while (pending) {
      const chunk: Buffer = await pending;
      if (chunk.length === 0) return { ok: false, problem: 'incomplete' };
      position += chunk.length;
      pending = position < size ? readChunk(position) : null;
      written += decipher.update(chunk).copy(plaintext, written);
    }
    decipher.final();
    return { ok: true, bytes: plaintext.subarray(0, written) };
  } catch (error) {
    // An error with a system code came from reading, not from the bytes: the file is not judged by it.
    return { ok: false, problem: isSystemError(error) ? 'unavailable' : 'damaged' };
  } finally {
    await handle.close();
  }
}

/** The plaintext of a cache file, or null for a missing, foreign, torn or tampered one. */
export async function decryptFile(key: Buffer, aad: string, path: string): Promise<Buffer | null> {
  const opened = await openCacheFile(key, aad, path);
  return opened.ok ? opened.bytes : null;
}

export function newCacheKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** An error of the operating system (EBUSY, EIO...), not of decryption (which has no code, or an ERR_ one). */
function isSystemError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && /^E[A-Z]+$/.test(code);
}
