import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { KeychainStatus } from '../../../shared/ipc/models.js';
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

const StoredFile = z.object({
  version: z.literal(1),
  /** JSON [service, account] → base64 of safeStorage's ciphertext. */
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
      const blob = (await this.#load()).get(key(service, account));
      return blob === undefined ? null : this.port.decryptString(Buffer.from(blob, 'base64'));
    });
  }

  set(service: string, account: string, secret: string): Promise<void> {
    return this.#serial(async () => {
      const entries = new Map(await this.#load());
      entries.set(key(service, account), this.port.encryptString(secret).toString('base64'));
      await this.#save(entries);
    });
  }

  delete(service: string, account: string): Promise<boolean> {
    return this.#serial(async () => {
      const entries = new Map(await this.#load());
      const existed = entries.delete(key(service, account));
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
      this.#entries = new Map();
      return this.#entries;
    }
    const parsed = StoredFile.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.file} is not a secrets file this app wrote`);
    this.#entries = new Map(Object.entries(parsed.data.entries));
    return this.#entries;
  }

  async #save(entries: Map<string, string>): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    const body = JSON.stringify({ version: 1, entries: Object.fromEntries(entries) });
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

function key(service: string, account: string): string {
  return JSON.stringify([service, account]);
}
