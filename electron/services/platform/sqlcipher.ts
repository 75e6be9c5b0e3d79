import type Database from 'better-sqlite3-multiple-ciphers';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { preparePrivateFileSync } from './private-files.js';

export type Connection = Database.Database;

/**
 * The module is native and loaded by name at run time (like keytar), so the
 * main bundle never inlines it. Its binding is named by path rather than found
 * by the `bindings` helper package, so the packaged app ships the module's own
 * files only (electron-builder.yml) and Electron loads the binding from
 * app.asar.unpacked as it does keytar's.
 */
let sqlite: { readonly open: typeof Database; readonly root: string; readonly binding: string } | null = null;
function loadSqlite(): { readonly open: typeof Database; readonly root: string; readonly binding: string } {
  if (!sqlite) {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('better-sqlite3-multiple-ciphers/package.json'));
    sqlite = { open: require('better-sqlite3-multiple-ciphers') as typeof Database, root, binding: join(root, 'build', 'Release', 'better_sqlite3.node') };
  }
  return sqlite;
}

/** Where the module and its binding are, for a worker thread that opens a connection of its own. */
export function sqliteLocation(): { readonly module: string; readonly binding: string } {
  const { root, binding } = loadSqlite();
  return { module: root, binding };
}

/**
 * How long a statement waits for a lock another connection holds before it fails with SQLITE_BUSY (better-sqlite3's
 * own default): long enough for the app's own checkpoint or rewrite thread to let go.
 */
export const BUSY_WAIT_MS = 5_000;

export function openConnection(file: string, busyMs = BUSY_WAIT_MS): Connection {
  const { open, binding } = loadSqlite();
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm the database's mode.
  if (file !== ':memory:') preparePrivateFileSync(file, [`${file}-wal`, `${file}-shm`]);
  return new open(file, { nativeBinding: binding, timeout: busyMs });
}

/** The pragmas that open a SQLCipher 4 file with a 256-bit key, in order (every connection to a replica runs them). */
export function keyPragmas(key: Buffer): string[] {
  return [`cipher = 'sqlcipher'`, 'legacy = 4', `key = "x'${key.toString('hex')}'"`];
}

/**
 * Opens a database in SQLCipher 4 format with a 256-bit key. A wrong key or a
 * damaged first page throws here (SQLITE_NOTADB), not at the first real read.
 */
export function openKeyed(file: string, key: Buffer, cacheKib: number, busyMs = BUSY_WAIT_MS): Connection {
  const db = openConnection(file, busyMs);
  try {
    for (const pragma of keyPragmas(key)) db.pragma(pragma);
    // Reading the schema is the first access that needs the key.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.pragma(`cache_size = -${cacheKib}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
