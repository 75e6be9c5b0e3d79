import type { Connection } from '../platform/sqlcipher.js';

/** An index whose kept definition is older than this version's: its name and the CREATE text it is made again with. */
export interface IndexToBuild {
  readonly name: string;
  readonly sql: string;
}

const KEPT_SQL = `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`;

/**
 * Creates each index of `definitions` (name -> `table (columns)`), and makes again one an earlier version defined
 * otherwise (SQLite keeps each index's CREATE text): a copy made before gains the new definition at its next open,
 * once. An earlier version opening the copy finds the index by name and leaves it; its queries are answered by it as
 * well, as long as each new definition keeps the old one's columns first.
 */
export function keepIndexes(db: Connection, table: string, definitions: Readonly<Record<string, string>>): void {
  for (const { name, sql } of keepIndexesLater(db, table, definitions)) {
    db.exec(`DROP INDEX ${name}`);
    db.exec(sql);
  }
}

/**
 * As `keepIndexes`, but an index an earlier version defined otherwise is left as it is and returned, to be made
 * again off the person's path (idx15: at 100,000 policies the two upcoming indexes took 6-10 s of the main thread at
 * an older copy's first open). Only for definitions that keep the old one's columns first: until the new one is
 * built, the old one answers the same queries (slower, never otherwise).
 */
export function keepIndexesLater(db: Connection, table: string, definitions: Readonly<Record<string, string>>): IndexToBuild[] {
  const found = new Map(db.prepare(KEPT_SQL).raw().all(table) as Array<[string, string]>);
  const later: IndexToBuild[] = [];
  for (const [name, on] of Object.entries(definitions)) {
    const sql = `CREATE INDEX ${name} ON ${on}`;
    if (found.get(name) === sql) continue;
    if (found.has(name)) later.push({ name, sql });
    else db.exec(sql);
  }
  return later;
}
