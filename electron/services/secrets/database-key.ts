import { randomBytes } from 'node:crypto';
import type { SecretStore } from './secret-store.js';

/** A database key: 256 bits, kept in the OS keychain (base64) under the database's service name and the username. */
export const DATABASE_KEY_BYTES = 32;

/**
 * What the keychain said about a database's key:
 * - a key: the one that opens the file;
 * - null: there is none (a new database, or a key that was lost);
 * - 'memory': nothing can be kept on disk this run (no keychain, or it
 *   stopped answering while asked: then "no key" means "unknown", and a file on
 *   disk is still good for the next run, so it must be left alone).
 */
export type StoredKey = Buffer | null | 'memory';

export async function readDatabaseKey(secrets: SecretStore, service: string, account: string): Promise<StoredKey> {
  if (keptInMemory(secrets)) return 'memory';
  const key = decodeKey(await secrets.get(service, account));
  return keptInMemory(secrets) ? 'memory' : key;
}

/**
 * Creates and stores a new key. 'memory' when the keychain gave up while
 * storing it: a file encrypted with a key that ends with this run must not be
 * written.
 */
export async function createDatabaseKey(secrets: SecretStore, service: string, account: string): Promise<Buffer | 'memory'> {
  const key = randomBytes(DATABASE_KEY_BYTES);
  await secrets.set(service, account, key.toString('base64'));
  return keptInMemory(secrets) ? 'memory' : key;
}

/** Read afresh each time: a resilient store falls back to memory in the middle of a call. */
function keptInMemory(secrets: SecretStore): boolean {
  return secrets.status.kind === 'memory';
}

function decodeKey(text: string | null): Buffer | null {
  if (!text) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === DATABASE_KEY_BYTES ? key : null;
}
