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
let sqlite: { readonly open: typeof Database; readonly binding: string } | null = null;
export function openConnection(file: string): Connection {
  if (!sqlite) {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('better-sqlite3-multiple-ciphers/package.json'));
    sqlite = { open: require('better-sqlite3-multiple-ciphers') as typeof Database, binding: join(root, 'build', 'Release', 'better_sqlite3.node') };
  }
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm the database's mode.
  if (file !== ':memory:') preparePrivateFileSync(file, [`${file}-wal`, `${file}-shm`]);
  return new sqlite.open(file, { nativeBinding: sqlite.binding });
}

/**
 * Opens a database in SQLCipher 4 format with a 256-bit key. A wrong key or a
 * damaged first page throws here (SQLITE_NOTADB), not at the first real read.
 */
export function openKeyed(file: string, key: Buffer, cacheKib: number): Connection {
  const db = openConnection(file);
  try {
    db.pragma(`cipher = 'sqlcipher'`);
    db.pragma('legacy = 4');
    db.pragma(`key = "x'${key.toString('hex')}'"`);
    // Reading the schema is the first access that needs the key.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.pragma(`cache_size = -${cacheKib}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
