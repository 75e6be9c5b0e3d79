/**
 * The Renewals' read of the upcoming policies (issue 28, renew14) reads no row of the list's table: the launch and end
 * indexes hold every column it takes, so the whole window is a walk along two indexes, not a random read of each
 * policy's row (the table's widest, with its search text: 1,417 against 237 ms cold at 100,000 in renew14's probe).
 * A copy whose indexes an earlier version made gains them at its next open, and reads the same policies.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { openKeyed, type Connection } from '../../electron/services/platform/sqlcipher.js';
import { UPCOMING_INDEXES, UpcomingInSlices, firstUpcomingOf, upcomingOf } from '../../electron/services/worklist/replica-upcoming.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const DAY_MS = 86_400_000;
/** Inside the synthetic policies' dates: the window holds some of them. */
const NOW = Date.UTC(2026, 9, 1);
const FROM = NOW;
const TO = NOW + 30 * DAY_MS;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-upcoming-covered-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The connection, each statement it prepares written down. */
function recording(connection: Connection, statements: string[]): Connection {
  return new Proxy(connection, {
    get: (target, name) =>
      name === 'prepare'
        ? (sql: string) => {
            statements.push(sql);
            return target.prepare(sql);
          }
        : (Reflect.get(target, name) as unknown),
  });
}

/** The plan's lines that read the list's table (under its name or the reads' alias `c`). */
function tableReads(connection: Connection, sql: string): string[] {
  const bind = { from: FROM, to: TO, afterMs: FROM, afterRid: Number.MAX_SAFE_INTEGER, limit: 500 };
  return (connection.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(bind) as Array<{ detail: string }>)
    .map((row) => row.detail)
    .filter((detail) => /^(SCAN|SEARCH) (c|capacities)\b/.test(detail));
}

describe('the upcoming policies read from the launch and end indexes alone', () => {
  it('reads the whole window, its steps and its first rows without a row of the table (EXPLAIN QUERY PLAN: covering indexes)', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'plans.db'), randomBytes(32));
    try {
      await db.replaceAll(syntheticPolicies(2_000), new Date(NOW).toISOString());
      const statements: string[] = [];
      const { whole, stepped, first } = db.readWith((plain) => {
        const connection = recording(plain, statements);
        const steps = new UpcomingInSlices(FROM, TO);
        while (steps.step(connection));
        const firstRows: string[] = [];
        firstUpcomingOf(connection, FROM, TO, (rows) => {
          firstRows.push(...rows.map((row) => row.cidrId));
          return firstRows.length >= 50;
        });
        // The steps kept what they read on `connection`: another object over the same connection reads the window in SQL.
        const wholeRows = upcomingOf(recording(plain, statements), FROM, TO);
        return { whole: wholeRows, stepped: steps, first: firstRows };
      });
      expect(stepped).toBeDefined();
      expect(whole.length).toBeGreaterThan(50);
      // The first rows are the whole window's first, in its order (the indexes change where rows come from, not which).
      expect(first.length).toBeGreaterThan(0);
      expect(first).toEqual(whole.slice(0, first.length).map((row) => row.cidrId));
      const reads = db.readWith((connection) => [...new Set(statements)].map((sql) => ({ sql, reads: tableReads(connection, sql) })));
      // The launches before the window whose policy has no end come through their own partial index (a handful of
      // oddities, read from their rows): every other statement, the step of each range and the walk along the ends.
      const walks = reads.filter(({ sql }) => /FROM capacities AS c\b/.test(sql) && !sql.includes('end_ms IS NULL OR end_ms < launch_ms'));
      // The whole window's read, the launches' and the ends' steps, the walk along the ends for the first rows.
      expect(walks.length).toBe(4);
      for (const { sql, reads: lines } of walks) {
        expect(lines.length, sql).toBeGreaterThan(0);
        for (const detail of lines) expect({ sql, detail }).toEqual({ sql, detail: expect.stringMatching(/COVERING INDEX capacities_(launch|end)\b/) });
      }
    } finally {
      await db.close();
    }
  });

  it('gives a copy whose plain indexes an earlier version made the covering ones at its next open, and reads the same policies', async () => {
    const file = join(dir, 'earlier.db');
    const key = randomBytes(32);
    const first = CapacityReplicaDb.open(file, key);
    const before = await (async () => {
      try {
        await first.replaceAll(syntheticPolicies(1_500), new Date(NOW).toISOString());
        return first.readWith((connection) => upcomingOf(connection, FROM, TO).map((row) => row.cidrId));
      } finally {
        await first.close();
      }
    })();
    // As an earlier version left them: the launch and end alone.
    const earlier = openKeyed(file, key, 1024);
    earlier.exec('DROP INDEX capacities_launch; DROP INDEX capacities_end; CREATE INDEX capacities_launch ON capacities (launch_ms); CREATE INDEX capacities_end ON capacities (end_ms);');
    earlier.close();

    const reopened = CapacityReplicaDb.open(file, key);
    try {
      const defined = reopened.readWith(
        (connection) => new Map(connection.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN ('capacities_launch', 'capacities_end')`).raw().all() as Array<[string, string]>),
      );
      expect(Object.fromEntries(defined)).toEqual(Object.fromEntries(Object.entries(UPCOMING_INDEXES).map(([name, on]) => [name, `CREATE INDEX ${name} ON ${on}`])));
      const after = reopened.readWith((connection) => upcomingOf(connection, FROM, TO).map((row) => row.cidrId));
      expect(after.length).toBeGreaterThan(0);
      expect(after).toEqual(before);
    } finally {
      await reopened.close();
    }
  });
});
