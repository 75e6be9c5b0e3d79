import type { Connection } from '../platform/sqlcipher.js';
import { commitVersion } from '../replica/commit-version.js';

/** A policy launching or ending soon, as the worklist filters it before reading whole records. */
export interface UpcomingCapacity {
  readonly rid: number;
  readonly cidrId: string;
  readonly policyStatus: string;
  readonly launchMs: number | null;
  readonly endMs: number | null;
  /** The linked account's name (cspAccountName); null when the record has none. */
  readonly account: string | null;
}

/**
 * How far past the window asked a read looks, so the questions that follow
 * (the next page, the view opened again, asked at a later `now`) fall inside
 * what was read: about 1/30 more rows for the 30-day horizon.
 */
const READ_AHEAD_MS = 86_400_000;

/** The launch and end statuses the worklist follows: a ready or active policy's launch, an active one's end. */
const LAUNCHES = new Set(['READY_FOR_PURCHASE', 'ACTIVE']);
const ENDS = new Set(['ACTIVE']);

// The unary + keeps SQLite off the status index (it would scan every active policy), so the launch and end
// indexes answer the two ranges. A copy written before the account column existed reads the account out of
// the record until its next sync.
const UPCOMING_SQL = `SELECT c.rid, c.cidr_id, c.policy_status, c.launch_ms, c.end_ms,
    coalesce(c.account, (SELECT json_extract(b.body, '$.cspAccountName') FROM capacity_bodies AS b WHERE b.rid = c.rid)) AS account
  FROM capacities AS c
  WHERE (c.launch_ms > @from AND c.launch_ms <= @to AND +c.policy_status IN (${[...LAUNCHES].map((s) => `'${s}'`).join(', ')}))
     OR (c.end_ms > @from AND c.end_ms <= @to AND +c.policy_status IN (${[...ENDS].map((s) => `'${s}'`).join(', ')}))
  ORDER BY c.end_ms, c.rid`;

interface Read {
  readonly version: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly rows: readonly UpcomingCapacity[];
}

/** The last window read per connection, with the commits it was read under. */
const kept = new WeakMap<Connection, Read>();

/**
 * The policies still to launch or end in (fromMs, toMs], soonest end first: a
 * ready or active policy whose launch falls there, an active one whose end
 * does. The account comes from its own column, so no record is read. A
 * window inside the last one read on this connection, with no commit since
 * (`commitVersion`: a refresh, a write-through), is answered from it without
 * SQL: opening the worklist again, its next pages, the reminders and the
 * calendar ask the same rows.
 */
export function upcomingOf(connection: Connection, fromMs: number, toMs: number): readonly UpcomingCapacity[] {
  const version = commitVersion(connection);
  const known = kept.get(connection);
  if (known?.version === version && known.fromMs <= fromMs && toMs <= known.toMs) {
    return known.fromMs === fromMs && known.toMs === toMs ? known.rows : known.rows.filter((row) => inWindow(row, fromMs, toMs));
  }
  const readTo = toMs + READ_AHEAD_MS;
  const rows = (connection.prepare(UPCOMING_SQL).raw().all({ from: fromMs, to: readTo }) as Array<[number, string, string, number | null, number | null, unknown]>).map(
    ([rid, cidrId, policyStatus, launchMs, endMs, account]): UpcomingCapacity => ({ rid, cidrId, policyStatus, launchMs, endMs, account: typeof account === 'string' ? account : null }),
  );
  kept.set(connection, { version, fromMs, toMs: readTo, rows });
  return rows.filter((row) => inWindow(row, fromMs, toMs));
}

/** The SQL's condition over a row already read (a narrower window keeps the SQL's order). */
export function inWindow(row: UpcomingCapacity, fromMs: number, toMs: number): boolean {
  const within = (ms: number | null) => ms !== null && ms > fromMs && ms <= toMs;
  return (within(row.launchMs) && LAUNCHES.has(row.policyStatus)) || (within(row.endMs) && ENDS.has(row.policyStatus));
}
