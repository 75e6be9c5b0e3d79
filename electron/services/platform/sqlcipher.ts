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
let sqlite: SqliteModule | null = null;
interface SqliteModule {
  readonly open: typeof Database;
  readonly module: string;
  readonly binding: string;
}
function loadSqlite(): SqliteModule {
  if (!sqlite) {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('better-sqlite3-multiple-ciphers/package.json'));
    // Asked for by name (a shipped node module, as the packaging checks read the bundle); its path goes to the writer thread.
    const open = require('better-sqlite3-multiple-ciphers') as typeof Database;
    sqlite = { open, module: require.resolve('better-sqlite3-multiple-ciphers'), binding: join(root, 'build', 'Release', 'better_sqlite3.node') };
  }
  return sqlite;
}

export function openConnection(file: string): Connection {
  const { open, binding } = loadSqlite();
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm the database's mode.
  if (file !== ':memory:') preparePrivateFileSync(file, [`${file}-wal`, `${file}-shm`]);
  return new open(file, { nativeBinding: binding });
}

/** Where the module and its binding are, for a worker thread that opens a connection of its own. */
export function sqliteLocation(): { readonly module: string; readonly binding: string } {
  const { module, binding } = loadSqlite();
  return { module, binding };
}

/** The pragmas that open a SQLCipher 4 database with a key, in order (a worker's connection runs the same). */
export function keyPragmas(key: Buffer, cacheKib: number): string[] {
  return [`cipher = 'sqlcipher'`, 'legacy = 4', `key = "x'${key.toString('hex')}'"`, `cache_size = -${cacheKib}`];
}

/**
 * Opens a database in SQLCipher 4 format with a 256-bit key. A wrong key or a
 * damaged first page throws here (SQLITE_NOTADB), not at the first real read.
 */
export function openKeyed(file: string, key: Buffer, cacheKib: number): Connection {
  const db = openConnection(file);
  try {
    for (const pragma of keyPragmas(key, cacheKib)) db.pragma(pragma);
    // Reading the schema is the first access that needs the key.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
