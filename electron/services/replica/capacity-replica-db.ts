import Database from 'better-sqlite3-multiple-ciphers';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { ParsedLocalCapacityQuery, LocalSortColumn } from '../../../shared/ipc/offline.js';

/** Rows written between yields during a full refresh: a few milliseconds each, so the main process never stalls. */
const WRITE_BATCH = 2_000;
/**
 * Decrypted pages kept in memory (KiB): the slim table and its indexes of
 * 100,000 policies fit, so a search decrypts nothing after the first one.
 */
const PAGE_CACHE_KIB = 96 * 1024;

/** Sort columns as SQL; every one ends with the row id so paging is stable among equal keys. */
const ORDER_BY: Readonly<Record<LocalSortColumn, string>> = {
  createdDate: 'created_date',
  cidrId: 'cidr_id',
  policyName: 'policy_name',
  policyStatus: 'policy_status',
  instanceType: 'instance_type',
  qty: 'qty',
  platform: 'platform',
  availabilityZone: 'zone',
  launch: 'launch_ms',
  end: 'end_ms',
  autoRenewal: 'auto_renewal',
  ourPrice: 'our_price',
  savingsPercentage: 'savings_pct',
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS capacities (
  rid INTEGER PRIMARY KEY,
  cidr_id TEXT NOT NULL UNIQUE,
  created_date TEXT NOT NULL,
  policy_name TEXT NOT NULL COLLATE NOCASE,
  policy_status TEXT NOT NULL,
  instance_type TEXT NOT NULL,
  qty INTEGER NOT NULL,
  platform TEXT NOT NULL,
  zone TEXT NOT NULL,
  launch_at TEXT NOT NULL,
  end_at TEXT NOT NULL,
  launch_ms INTEGER,
  end_ms INTEGER,
  auto_renewal INTEGER NOT NULL,
  our_price REAL,
  savings REAL,
  savings_pct REAL,
  search TEXT NOT NULL
) STRICT;
-- The whole record, apart: searches and sorts scan the slim table above and read bodies only for the rows shown.
CREATE TABLE IF NOT EXISTS capacity_bodies (rid INTEGER PRIMARY KEY REFERENCES capacities (rid) ON DELETE CASCADE, body TEXT NOT NULL) STRICT;
CREATE INDEX IF NOT EXISTS capacities_status_created ON capacities (policy_status, created_date);
CREATE INDEX IF NOT EXISTS capacities_created ON capacities (created_date);
CREATE VIRTUAL TABLE IF NOT EXISTS capacities_text USING fts5 (search, content = 'capacities', content_rowid = 'rid', tokenize = 'trigram');
CREATE TRIGGER IF NOT EXISTS capacities_text_insert AFTER INSERT ON capacities BEGIN
  INSERT INTO capacities_text (rowid, search) VALUES (new.rid, new.search);
END;
CREATE TRIGGER IF NOT EXISTS capacities_text_delete AFTER DELETE ON capacities BEGIN
  INSERT INTO capacities_text (capacities_text, rowid, search) VALUES ('delete', old.rid, old.search);
END;
CREATE TRIGGER IF NOT EXISTS capacities_text_update AFTER UPDATE ON capacities BEGIN
  INSERT INTO capacities_text (capacities_text, rowid, search) VALUES ('delete', old.rid, old.search);
  INSERT INTO capacities_text (rowid, search) VALUES (new.rid, new.search);
END;
`;

type Query = ParsedLocalCapacityQuery;

/**
 * The capacity policies of one user of one environment in an encrypted
 * SQLite database (SQLCipher format): one row per policy, so writing one
 * changed policy touches one row; sort columns and a trigram full-text index
 * answer search and sort without loading the list into memory. WAL journaling
 * makes every commit all-or-nothing across a crash.
 */
export class CapacityReplicaDb {
  readonly #db: Database.Database;
  readonly #upsertRow: Database.Statement;
  readonly #upsertBody: Database.Statement;

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#upsertRow = db.prepare(`
      INSERT INTO capacities (cidr_id, created_date, policy_name, policy_status, instance_type, qty, platform, zone,
        launch_at, end_at, launch_ms, end_ms, auto_renewal, our_price, savings, savings_pct, search)
      VALUES (@cidrId, @createdDate, @policyName, @policyStatus, @instanceType, @qty, @platform, @zone,
        @launchAt, @endAt, @launchMs, @endMs, @autoRenewal, @ourPrice, @savings, @savingsPct, @search)
      ON CONFLICT (cidr_id) DO UPDATE SET created_date = excluded.created_date, policy_name = excluded.policy_name,
        policy_status = excluded.policy_status, instance_type = excluded.instance_type, qty = excluded.qty,
        platform = excluded.platform, zone = excluded.zone, launch_at = excluded.launch_at, end_at = excluded.end_at,
        launch_ms = excluded.launch_ms, end_ms = excluded.end_ms, auto_renewal = excluded.auto_renewal,
        our_price = excluded.our_price, savings = excluded.savings, savings_pct = excluded.savings_pct, search = excluded.search
      RETURNING rid`);
    this.#upsertBody = db.prepare('INSERT INTO capacity_bodies (rid, body) VALUES (?, ?) ON CONFLICT (rid) DO UPDATE SET body = excluded.body');
  }

  /** Opens (or creates) the database with a 256-bit key; a wrong key or a damaged file throws here, not later. */
  static open(file: string, key: Buffer): CapacityReplicaDb {
    const db = new Database(file);
    try {
      db.pragma(`cipher = 'sqlcipher'`);
      db.pragma('legacy = 4');
      db.pragma(`key = "x'${key.toString('hex')}'"`);
      // Reading the schema is the first access that needs the key.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      db.exec(SCHEMA);
      return new CapacityReplicaDb(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  get count(): number {
    return (this.#db.prepare('SELECT count(*) AS n FROM capacities').get() as { n: number }).n;
  }

  get fetchedAt(): string | null {
    const row = this.#db.prepare(`SELECT value FROM meta WHERE key = 'capacities.fetchedAt'`).get() as { value: string } | undefined;
    return row?.value ?? null;
  }

  /** A full refresh: the new list replaces the old one in a single commit. */
  async replaceAll(policies: readonly CapacityPolicy[], fetchedAt: string): Promise<void> {
    // One transaction keeps the old list whole until the new one is; batches inside it yield.
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      this.#db.exec('DELETE FROM capacity_bodies; DELETE FROM capacities;');
      for (let start = 0; start < policies.length; start += WRITE_BATCH) {
        for (const policy of policies.slice(start, start + WRITE_BATCH)) this.#write(policy);
        await yieldToEventLoop();
      }
      this.#setMeta('capacities.fetchedAt', fetchedAt);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Write-through of one policy the service just answered with. */
  upsert(policy: CapacityPolicy): void {
    this.#db.transaction(() => this.#write(policy))();
  }

  #write(policy: CapacityPolicy): void {
    const { rid } = this.#upsertRow.get(toRow(policy)) as { rid: number };
    this.#upsertBody.run(rid, JSON.stringify(policy));
  }

  query(query: Query): { rows: CapacityPolicy[]; total: number } {
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    if (query.status) {
      where.push('policy_status = @status');
      params.status = query.status;
    }
    const needle = query.text.trim().toLowerCase();
    if (needle) {
      // The trigram index takes a quoted phrase literally (no wildcards, unlike its LIKE, which
      // ignores ESCAPE); it needs three characters, so shorter needles scan the text column.
      if ([...needle].length >= 3) {
        where.push('rid IN (SELECT rowid FROM capacities_text WHERE capacities_text MATCH @phrase)');
        params.phrase = `"${needle.replace(/"/g, '""')}"`;
      } else {
        where.push('instr(search, @needle) > 0');
        params.needle = needle;
      }
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.#db.prepare(`SELECT count(*) AS n FROM capacities ${clause}`).get(params) as { n: number }).n;
    const direction = query.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const rows = this.#db
      .prepare(
        `SELECT b.body FROM (SELECT rid FROM capacities ${clause} ORDER BY ${ORDER_BY[query.sortBy]} ${direction}, rid ${direction} LIMIT @limit OFFSET @offset) AS page
         JOIN capacity_bodies AS b USING (rid)`,
      )
      .all({ ...params, limit: query.limit, offset: query.offset }) as { body: string }[];
    return { rows: rows.map((r) => JSON.parse(r.body) as CapacityPolicy), total };
  }

  /** Every policy as a slim row (no body): what search, sort and the overview need, in one pass. */
  slimRows(): SlimCapacityRow[] {
    const rows = this.#db
      .prepare(
        `SELECT rid, cidr_id, created_date, policy_name, policy_status, instance_type, qty, platform, zone,
           launch_at, end_at, launch_ms, end_ms, auto_renewal, our_price, savings, savings_pct, search FROM capacities`,
      )
      .raw()
      .all() as SlimTuple[];
    return rows.map(slimRow);
  }

  slimRow(cidrId: string): SlimCapacityRow | null {
    const tuple = this.#db
      .prepare(
        `SELECT rid, cidr_id, created_date, policy_name, policy_status, instance_type, qty, platform, zone,
           launch_at, end_at, launch_ms, end_ms, auto_renewal, our_price, savings, savings_pct, search FROM capacities WHERE cidr_id = ?`,
      )
      .raw()
      .get(cidrId) as SlimTuple | undefined;
    return tuple ? slimRow(tuple) : null;
  }

  /** Whole records for the given rows, in the order given. */
  bodies(rids: readonly number[]): CapacityPolicy[] {
    if (rids.length === 0) return [];
    const found = this.#db.prepare(`SELECT rid, body FROM capacity_bodies WHERE rid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(rids)) as {
      rid: number;
      body: string;
    }[];
    const byRid = new Map(found.map((r) => [r.rid, r.body]));
    return rids.flatMap((rid) => {
      const body = byRid.get(rid);
      return body === undefined ? [] : [JSON.parse(body) as CapacityPolicy];
    });
  }

  close(): void {
    this.#db.close();
  }

  #setMeta(key: string, value: string): void {
    this.#db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}

type SlimTuple = [number, string, string, string, string, string, number, string, string, string, string, number | null, number | null, number, number | null, number | null, number | null, string];

/** One policy as the slim table holds it: as much of a policy as search, sort and the overview read. */
export interface SlimCapacityRow {
  readonly rid: number;
  readonly cidrId: string;
  readonly policyName: string;
  readonly policyStatus: string;
  readonly createdDate: string;
  readonly policyInstance: { readonly instanceType: string; readonly qty: number; readonly platformCode: string };
  readonly capacityConfiguration: { readonly launchDateTime: string; readonly endDateTime: string; readonly autoRenewalEnabled: boolean };
  readonly pricing: { readonly savings: number };
  readonly zone: string;
  readonly launchMs: number | null;
  readonly endMs: number | null;
  readonly ourPrice: number | null;
  readonly savingsPercentage: number | null;
  /** Lower-case id, name, instance type, zone and account, as the search matches them. */
  readonly search: string;
}

function slimRow(t: SlimTuple): SlimCapacityRow {
  const [rid, cidrId, createdDate, policyName, policyStatus, instanceType, qty, platformCode, zone, launchDateTime, endDateTime, launchMs, endMs, autoRenewal, ourPrice, savings, savingsPercentage, search] = t;
  return {
    rid,
    cidrId,
    createdDate,
    policyName,
    policyStatus,
    policyInstance: { instanceType, qty, platformCode },
    zone,
    capacityConfiguration: { launchDateTime, endDateTime, autoRenewalEnabled: autoRenewal === 1 },
    pricing: { savings: savings ?? 0 },
    launchMs,
    endMs,
    ourPrice,
    savingsPercentage,
    search,
  };
}

function toRow(policy: CapacityPolicy): Record<string, string | number | null> {
  const launch = Date.parse(policy.capacityConfiguration.launchDateTime);
  const end = Date.parse(policy.capacityConfiguration.endDateTime);
  return {
    cidrId: policy.cidrId,
    createdDate: policy.createdDate,
    policyName: policy.policyName,
    policyStatus: policy.policyStatus,
    instanceType: policy.policyInstance.instanceType,
    qty: policy.policyInstance.qty,
    platform: policy.policyInstance.platformCode,
    zone: policy.cspRegion.availabilityZoneId,
    launchAt: policy.capacityConfiguration.launchDateTime,
    endAt: policy.capacityConfiguration.endDateTime,
    launchMs: Number.isNaN(launch) ? null : launch,
    endMs: Number.isNaN(end) ? null : end,
    autoRenewal: policy.capacityConfiguration.autoRenewalEnabled ? 1 : 0,
    ourPrice: policy.pricing.ourPrice,
    savings: policy.pricing.savings,
    savingsPct: policy.pricing.savingsPercentage,
    search: [policy.cidrId, policy.policyName, policy.policyInstance.instanceType, policy.cspRegion.availabilityZoneId, policy.cspAccountName]
      .join('\u0001')
      .toLowerCase(),
  };
}
