import type { Connection } from '../platform/sqlcipher.js';

/**
 * Which commits a connection has seen, as a key for what was derived from the
 * file: another connection's commit (the refresh's writer, whichever rows it
 * rewrites) moves `data_version`, this connection's own writes move
 * `total_changes()` (in memory, one connection reads and writes). Equal
 * versions mean the same rows.
 */
export function commitVersion(connection: Connection): string {
  const raw = rawVersion(connection);
  return sameRows.get(connection)?.get(raw) ?? raw;
}

function rawVersion(connection: Connection): string {
  return `${String(connection.pragma('data_version', { simple: true }))}:${String(connection.prepare('SELECT total_changes()').pluck().get())}`;
}

/** Per reading connection: versions reached by commits that changed no row anything is derived from, to the version before them. */
const sameRows = new WeakMap<Connection, Map<string, string>>();

/**
 * Runs a commit that changes no row what is kept per version is derived from
 * (the overview's savings tally, kept for the next launch): what was derived
 * before it stays valid after it, so the worklist's kept answers and the
 * account names are not read again for it. The caller holds the writes' queue,
 * so no other commit lands between the two looks.
 */
export function commitKeepingVersion(reading: Connection, commit: () => void): void {
  const before = commitVersion(reading);
  commit();
  const after = rawVersion(reading);
  if (after === before) return;
  let aliases = sameRows.get(reading);
  if (!aliases) sameRows.set(reading, (aliases = new Map()));
  aliases.set(after, before);
}
