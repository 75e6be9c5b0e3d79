import type { Connection } from '../platform/sqlcipher.js';

/**
 * Creates each index of `definitions` (name -> `table (columns)`), and makes again one an earlier version defined
 * otherwise (SQLite keeps each index's CREATE text): a copy made before gains the new definition at its next open,
 * once. An earlier version opening the copy finds the index by name and leaves it; its queries are answered by it as
 * well, as long as each new definition keeps the old one's columns first.
 */
export function keepIndexes(db: Connection, table: string, definitions: Readonly<Record<string, string>>): void {
  const found = new Map(db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).raw().all(table) as Array<[string, string]>);
  for (const [name, on] of Object.entries(definitions)) {
    const sql = `CREATE INDEX ${name} ON ${on}`;
    if (found.get(name) === sql) continue;
    if (found.has(name)) db.exec(`DROP INDEX ${name}`);
    db.exec(sql);
  }
}
