import { createHmac, randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { KeychainStatus } from '../../../shared/ipc/session.js';
import { ensurePrivateDir } from '../platform/private-files.js';
import type { SecretStore } from './secret-store.js';

/**
 * The part of Electron's `safeStorage` this store uses, injected by
 * electron/main so the store itself is Electron-free and tested in Node.
 */
export interface SafeStoragePort {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /**
   * Linux: `safeStorage.getSelectedStorageBackend()`; `basic_text` means a key
   * hard-coded in Chromium (obfuscation, not protection). macOS and Windows
   * always encrypt with a key the OS guards (Keychain, DPAPI): 'os'.
   */
  readonly backend: string;
}

/** Backends that protect nothing, or are not known yet (asked before 'ready'). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

/** Why safeStorage cannot hold secrets here, or null when it can. */
export function safeStorageUnusable(port: SafeStoragePort): string | null {
  if (WEAK_BACKENDS.has(port.backend)) return `the OS encryption backend is "${port.backend}", which does not protect secrets`;
  if (!port.isEncryptionAvailable()) return 'the OS encryption (safeStorage) is not available';
  return null;
}

export const SAFE_STORAGE_FILE = 'secrets.safe-storage.json';

/** Version 1 named each entry by its JSON [service, account]: the environment and username in clear. Read to migrate only. */
const StoredFileV1 = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), z.string()),
});
const StoredFile = z.object({
  version: z.literal(2),
  /** The key that names entries, sealed with safeStorage (base64): names cannot be confirmed by guessing without the OS key. */
  nameKey: z.string(),
  /** HMAC-SHA-256 of JSON [service, account] under nameKey (hex) → base64 of safeStorage's ciphertext. */
  entries: z.record(z.string(), z.string()),
});

/**
 * Secrets encrypted with Electron's safeStorage (the OS's key: Keychain on
 * macOS, DPAPI on Windows, Secret Service or KWallet on Linux), as VS Code and
 * Signal keep theirs when no keychain entry can be written. The blobs live in
 * one file in the data folder, readable by this user only (0600), replaced
 * atomically. Used when keytar cannot reach the keychain (open-secret-store.ts).
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly status: KeychainStatus;
  readonly file: string;
  #entries: Map<string, string> | null = null;
  #nameKey: { readonly plain: string; readonly sealed: string } | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly port: SafeStoragePort,
    dataDir: string,
    /** Why the system keychain is not used; shown with the status. */
    keychainReason?: string,
  ) {
    this.file = join(dataDir, SAFE_STORAGE_FILE);
    this.status = { kind: 'safe-storage', ...(keychainReason ? { reason: keychainReason } : {}) };
  }

  get(service: string, account: string): Promise<string | null> {
    return this.#serial(async () => {
      const blob = (await this.#load()).get(this.#name(service, account));
      return blob === undefined ? null : this.port.decryptString(Buffer.from(blob, 'base64'));
    });
  }

  set(service: string, account: string, secret: string): Promise<void> {
    return this.#serial(async () => {
      const entries = new Map(await this.#load());
      entries.set(this.#name(service, account), this.port.encryptString(secret).toString('base64'));
      await this.#save(entries);
    });
  }

  delete(service: string, account: string): Promise<boolean> {
    return this.#serial(async () => {
      const entries = new Map(await this.#load());
      const existed = entries.delete(this.#name(service, account));
      if (existed) await this.#save(entries);
      return existed;
    });
  }

  /** One operation at a time: two writes must never interleave their read-modify-write. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #load(): Promise<Map<string, string>> {
    if (this.#entries) return this.#entries;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.#nameKey = this.#newNameKey();
      this.#entries = new Map();
      return this.#entries;
    }
    const raw = JSON.parse(text) as unknown;
    const parsed = StoredFile.safeParse(raw);
    if (parsed.success) {
      this.#nameKey = { plain: this.port.decryptString(Buffer.from(parsed.data.nameKey, 'base64')), sealed: parsed.data.nameKey };
      this.#entries = new Map(Object.entries(parsed.data.entries));
      return this.#entries;
    }
    const older = StoredFileV1.safeParse(raw);
    if (!older.success) throw new Error(`${this.file} is not a secrets file this app wrote`);
    // Migration: the same blobs under hashed names; the file with names in clear is replaced at once.
    this.#nameKey = this.#newNameKey();
    const migrated = new Map<string, string>();
    for (const [clearName, blob] of Object.entries(older.data.entries)) {
      const pair = parseClearName(clearName);
      if (pair) migrated.set(this.#name(pair[0], pair[1]), blob);
    }
    await this.#save(migrated);
    return migrated;
  }

  #newNameKey(): { plain: string; sealed: string } {
    const plain = randomBytes(32).toString('base64');
    return { plain, sealed: this.port.encryptString(plain).toString('base64') };
  }

  /** An entry's name on disk: says nothing of the environment or user without the OS key. */
  #name(service: string, account: string): string {
    if (!this.#nameKey) throw new Error('the secrets file was not loaded');
    return createHmac('sha256', this.#nameKey.plain).update(JSON.stringify([service, account])).digest('hex');
  }

  async #save(entries: Map<string, string>): Promise<void> {
    await ensurePrivateDir(dirname(this.file));
    const temporary = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    if (!this.#nameKey) throw new Error('the secrets file was not loaded');
    const body = JSON.stringify({ version: 2, nameKey: this.#nameKey.sealed, entries: Object.fromEntries(entries) });
    try {
      await writeFile(temporary, body, { mode: 0o600 });
      // The mode given to writeFile is masked by the umask; make it exact.
      await chmod(temporary, 0o600);
      await rename(temporary, this.file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    this.#entries = entries;
  }
}

/** A version 1 entry name, JSON [service, account]; null when it is not one. */
function parseClearName(name: string): [string, string] | null {
  try {
    const value = JSON.parse(name) as unknown;
    return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' ? [value[0], value[1]] : null;
  } catch {
    return null;
  }
}
