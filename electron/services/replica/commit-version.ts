import type { Connection } from '../platform/sqlcipher.js';

/**
 * Which commits a connection has seen, as a key for what was derived from the
 * file: another connection's commit (the refresh's writer, whichever rows it
 * rewrites) moves `data_version`, this connection's own writes move
 * `total_changes()` (in memory, one connection reads and writes). Equal
 * versions mean the same rows.
 */
export function commitVersion(connection: Connection): string {
  return `${String(connection.pragma('data_version', { simple: true }))}:${String(connection.prepare('SELECT total_changes()').pluck().get())}`;
}
