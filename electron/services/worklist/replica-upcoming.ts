import type { Connection } from '../platform/sqlcipher.js';
import { listVersion } from '../replica/commit-version.js';
import { keepIndexesLater, type IndexToBuild } from '../replica/kept-indexes.js';

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

/**
 * The launch and end indexes, each holding every column the upcoming read takes (renew14): through the plain
 * (launch_ms) and (end_ms) indexes each policy in the window was a read of its table row, whose search text makes the
 * table the copy's widest; cold, at 100,000, the whole window's read took 1,417 ms through them and 237 ms through
 * these (load 41-45, scratch probe). The row id comes second, so each index is in the (ms, rid) order the steps'
 * cursor and ORDER BY walk; the plain indexes' column first, so an earlier version's queries use them as before.
 * Made with the replica's schema, after the account column. A copy made before keeps its plain ones at its open (they
 * answer the same reads, slower) and gains these on the checkpoint thread after it (idx15: `keepIndexesLater`).
 */
export const UPCOMING_INDEXES: Readonly<Record<string, string>> = {
  capacities_launch: 'capacities (launch_ms, rid, policy_status, end_ms, cidr_id, account)',
  capacities_end: 'capacities (end_ms, rid, policy_status, launch_ms, cidr_id, account)',
};

/** Creates the indexes a copy lacks; returns those an earlier version defined otherwise, to be built off the main thread. */
export function keepUpcomingIndexes(db: Connection): IndexToBuild[] {
  return keepIndexesLater(db, 'capacities', UPCOMING_INDEXES);
}

/** The launch and end statuses the worklist follows: a ready or active policy's launch, an active one's end. */
const LAUNCHES = new Set(['READY_FOR_PURCHASE', 'ACTIVE']);
const ENDS = new Set(['ACTIVE']);

const statusList = (statuses: ReadonlySet<string>) => [...statuses].map((s) => `'${s}'`).join(', ');
const ACCOUNT_SQL = `coalesce(c.account, (SELECT json_extract(b.body, '$.cspAccountName') FROM capacity_bodies AS b WHERE b.rid = c.rid))`;

// The unary + keeps SQLite off the status index (it would scan every active policy), so the launch and end
// indexes answer the two ranges. A copy written before the account column existed reads the account out of
// the record until its next sync.
const UPCOMING_SQL = `SELECT c.rid, c.cidr_id, c.policy_status, c.launch_ms, c.end_ms, ${ACCOUNT_SQL} AS account
  FROM capacities AS c
  WHERE (c.launch_ms > @from AND c.launch_ms <= @to AND +c.policy_status IN (${statusList(LAUNCHES)}))
     OR (c.end_ms > @from AND c.end_ms <= @to AND +c.policy_status IN (${statusList(ENDS)}))
  ORDER BY c.end_ms, c.rid`;

/** Rows per step of the read in slices: one short walk along an index (each step well under a slice). */
export const STEP_ROWS = 500;

/** One of the two ranges of UPCOMING_SQL, a step at a time along its index, after the last row read. */
const rangeStepSql = (column: 'launch_ms' | 'end_ms', statuses: ReadonlySet<string>) =>
  `SELECT c.rid, c.cidr_id, c.policy_status, c.launch_ms, c.end_ms, ${ACCOUNT_SQL} AS account
  FROM capacities AS c
  WHERE c.${column} > @from AND c.${column} <= @to AND +c.policy_status IN (${statusList(statuses)})
    AND (c.${column}, c.rid) > (@afterMs, @afterRid)
  ORDER BY c.${column}, c.rid LIMIT @limit`;
/** SQLite's LIMIT for "no limit": the rest of a range in one walk. */
const ALL_ROWS = -1;
const LAUNCH_STEP_SQL = rangeStepSql('launch_ms', LAUNCHES);
const END_STEP_SQL = rangeStepSql('end_ms', ENDS);

type UpcomingTuple = [number, string, string, number | null, number | null, unknown];
const upcomingRow = ([rid, cidrId, policyStatus, launchMs, endMs, account]: UpcomingTuple): UpcomingCapacity => ({
  rid,
  cidrId,
  policyStatus,
  launchMs,
  endMs,
  account: typeof account === 'string' ? account : null,
});

interface Read {
  readonly version: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly rows: readonly UpcomingCapacity[];
}

/**
 * The last window read per connection, with the list's commits it was read under (`listVersion`: the records a
 * sync writes after the list, its details, accounts and DR lists, leave it standing).
 */
const kept = new WeakMap<Connection, Read>();

/**
 * The policies still to launch or end in (fromMs, toMs], soonest end first: a
 * ready or active policy whose launch falls there, an active one whose end
 * does. The account comes from its own column, so no record is read. A
 * window inside the last one read on this connection, with no commit since
 * (`listVersion`: a refresh of the list, a write-through), is answered from it without
 * SQL: opening the worklist again, its next pages, the reminders and the
 * calendar ask the same rows.
 */
export function upcomingOf(connection: Connection, fromMs: number, toMs: number): readonly UpcomingCapacity[] {
  // A read in slices under way that covers the window is finished here rather than read again from its start. The
  // version is read after it: a commit by another connection (the rewrite thread) inside the walk leaves what it kept
  // under the version before, which then no longer matches, and the window is read at once in one statement (review11:
  // read before the walk, launches from before a commit and ends from after it were answered as one copy).
  underWay.get(connection)?.finishFor(connection, fromMs, toMs);
  const version = listVersion(connection);
  const known = kept.get(connection);
  if (known?.version === version && known.fromMs <= fromMs && toMs <= known.toMs) {
    return known.fromMs === fromMs && known.toMs === toMs ? known.rows : known.rows.filter((row) => inWindow(row, fromMs, toMs));
  }
  const readTo = toMs + READ_AHEAD_MS;
  const rows = (connection.prepare(UPCOMING_SQL).raw().all({ from: fromMs, to: readTo }) as UpcomingTuple[]).map(upcomingRow);
  kept.set(connection, { version, fromMs, toMs: readTo, rows });
  return rows.filter((row) => inWindow(row, fromMs, toMs));
}

/**
 * The read in slices under way on each connection: a person's read of a window it covers joins it (`finishFor`).
 * Read once the click came during the steps, the whole window was read again beside them (937 ms at load 18 after
 * a first sync of 100,000, with a third of the steps already made), and the steps then read it all a third time.
 */
const underWay = new WeakMap<Connection, UpcomingInSlices>();

/** Commits met by a read in slices before it gives up (a refresh under way): the person's read then reads at once. */
const RESTARTS = 3;

/**
 * The read `upcomingOf` makes, made a step at a time for background work (the Renewals' opening made ahead, issue
 * 28): each `step` is one short walk along the launch or end index, and the caller yields between steps, so a
 * person's request is answered meanwhile (the whole read took 1.6 s at load 27 after a first sync of 100,000).
 * No read transaction spans the steps (it would be the reading connection's, which every person's read shares):
 * a commit of the list between them (`listVersion`) starts the read again, and after RESTARTS of them it ends with nothing
 * kept. Once whole, it is kept as `upcomingOf` keeps its own read, which then answers from it.
 */
export class UpcomingInSlices {
  readonly #fromMs: number;
  /** The window asked for ends at #toMs; it is read (and kept) to #readTo, as `upcomingOf` reads. */
  readonly #toMs: number;
  readonly #readTo: number;
  /** Rows per step (STEP_ROWS; tests take fewer, so a window of a few hundred rows takes several steps). */
  readonly #stepRows: number;
  #connection: Connection | null = null;
  #version = '';
  #restarts = 0;
  #phase: 'launches' | 'ends' = 'launches';
  #after: { ms: number; rid: number } = { ms: 0, rid: 0 };
  #launches: UpcomingCapacity[] = [];
  #ends: UpcomingCapacity[] = [];

  constructor(fromMs: number, toMs: number, stepRows = STEP_ROWS) {
    this.#fromMs = fromMs;
    this.#toMs = toMs;
    this.#readTo = toMs + READ_AHEAD_MS;
    this.#stepRows = stepRows;
  }

  /** Reads the next rows on `connection`; false once the read is kept (or given up). */
  step(connection: Connection): boolean {
    const more = this.#step(connection, this.#stepRows);
    if (more) underWay.set(connection, this);
    else if (underWay.get(connection) === this) underWay.delete(connection);
    return more;
  }

  /**
   * For a person's read of (fromMs, toMs] on `connection`: when these steps cover that window and have
   * met no commit since they began, the rest of each range is read in one walk from where the steps are, and kept.
   */
  finishFor(connection: Connection, fromMs: number, toMs: number): void {
    if (!this.covers(connection, fromMs, toMs)) return;
    while (this.#step(connection, ALL_ROWS));
    if (underWay.get(connection) === this) underWay.delete(connection);
  }

  /** Whether these steps, read on `connection` with no commit of the list since they began, hold (fromMs, toMs]. */
  covers(connection: Connection, fromMs: number, toMs: number): boolean {
    return connection === this.#connection && listVersion(connection) === this.#version && fromMs >= this.#fromMs && toMs <= this.#readTo;
  }

  #step(connection: Connection, limit: number): boolean {
    const version = listVersion(connection);
    if (connection !== this.#connection || version !== this.#version) {
      if (this.#connection !== null && (this.#restarts += 1) > RESTARTS) return false;
      this.#start(connection, version);
    }
    // A read kept meanwhile that holds the window asked (a person's query read it, from a moment earlier) is enough.
    const known = kept.get(connection);
    if (known?.version === version && known.fromMs <= this.#fromMs && this.#toMs <= known.toMs) return false;
    const sql = this.#phase === 'launches' ? LAUNCH_STEP_SQL : END_STEP_SQL;
    const rows = (connection.prepare(sql).raw().all({ from: this.#fromMs, to: this.#readTo, afterMs: this.#after.ms, afterRid: this.#after.rid, limit }) as UpcomingTuple[]).map(
      upcomingRow,
    );
    (this.#phase === 'launches' ? this.#launches : this.#ends).push(...rows);
    const last = rows.at(-1);
    if (last) this.#after = { ms: (this.#phase === 'launches' ? last.launchMs : last.endMs) ?? this.#fromMs, rid: last.rid };
    if (rows.length === limit) return true;
    if (this.#phase === 'launches') {
      this.#phase = 'ends';
      this.#after = { ms: this.#fromMs, rid: Number.MAX_SAFE_INTEGER };
      return true;
    }
    kept.set(connection, { version, fromMs: this.#fromMs, toMs: this.#readTo, rows: this.#inEndOrder() });
    return false;
  }

  #start(connection: Connection, version: string): void {
    this.#connection = connection;
    this.#version = version;
    this.#phase = 'launches';
    // (ms, rid) > (from, the largest id): every row past `from`, as the range asks.
    this.#after = { ms: this.#fromMs, rid: Number.MAX_SAFE_INTEGER };
    this.#launches = [];
    this.#ends = [];
  }

  /** Both ranges as one list in UPCOMING_SQL's order (end, then id; no end first): the ends are in it already. */
  #inEndOrder(): UpcomingCapacity[] {
    const ending = new Set(this.#ends.map((row) => row.rid));
    const endKey = (row: UpcomingCapacity) => row.endMs ?? Number.NEGATIVE_INFINITY;
    const byEnd = (a: UpcomingCapacity, b: UpcomingCapacity) => endKey(a) - endKey(b) || a.rid - b.rid;
    const launching = this.#launches.filter((row) => !ending.has(row.rid)).sort(byEnd);
    const merged: UpcomingCapacity[] = [];
    let l = 0;
    let e = 0;
    while (l < launching.length || e < this.#ends.length) {
      const launch = launching[l];
      const end = this.#ends[e];
      if (launch && (!end || byEnd(launch, end) < 0)) {
        merged.push(launch);
        l += 1;
      } else if (end) {
        merged.push(end);
        e += 1;
      }
    }
    return merged;
  }
}

/**
 * The launches in the window whose policy has no end or ends before the window opens: UPCOMING_SQL's order puts them
 * first (no end, then the earliest end), so the list's first rows cannot be told before they are read. Such a policy
 * ends before it launches (or has no end): the partial index below holds only those, so this reads a handful of index
 * entries, where the launch index's walk over the window read every launch's row (38 ms cold at 100,000, load 14).
 * Its last condition is the index's own, written as SQLite must find it to use the index; `end_ms <= @from` implies it.
 */
export const UPCOMING_HEAD_INDEX = 'CREATE INDEX IF NOT EXISTS capacities_upcoming_head ON capacities (launch_ms) WHERE end_ms IS NULL OR end_ms < launch_ms;';
const HEAD_SQL = `SELECT c.rid, c.cidr_id, c.policy_status, c.launch_ms, c.end_ms, ${ACCOUNT_SQL} AS account
  FROM capacities AS c
  WHERE c.launch_ms > @from AND c.launch_ms <= @headTo AND +c.policy_status IN (${statusList(LAUNCHES)})
    AND (c.end_ms IS NULL OR c.end_ms <= @from) AND (end_ms IS NULL OR end_ms < launch_ms)
  ORDER BY c.end_ms, c.rid`;

/**
 * The rest of the window's rows whose end falls inside it, in UPCOMING_SQL's order, after the last row read: one walk
 * along the end index from the window's start (the ends' order is the list's), which stops as soon as it has enough.
 * The policies launching in the window that end past it come after all of these (not read here).
 */
const ALONG_ENDS_SQL = `SELECT c.rid, c.cidr_id, c.policy_status, c.launch_ms, c.end_ms, ${ACCOUNT_SQL} AS account
  FROM capacities AS c INDEXED BY capacities_end
  WHERE c.end_ms > @from AND c.end_ms <= @to
    AND (+c.policy_status IN (${statusList(ENDS)}) OR (c.launch_ms > @from AND c.launch_ms <= @to AND +c.policy_status IN (${statusList(LAUNCHES)})))
    AND (c.end_ms, c.rid) > (@afterMs, @afterRid)
  ORDER BY c.end_ms, c.rid LIMIT @limit`;

/** Rows per walk of the first rows' read: twice a page, so the first page usually takes one statement. */
const FIRST_ROWS_STEP = 200;
/**
 * Rows the first rows' read takes at most before it leaves the window to the whole read: a narrow filter (one
 * customer's page, a rare state) may match few of them, and the whole read would then follow a long walk.
 */
const FIRST_ROWS_AT_MOST = 2_000;

/**
 * The window's first rows in UPCOMING_SQL's order, without reading the whole window (the Renewals' first rows before
 * the count, issue 28): `take` is given them in order, a batch at a time, until it says it has enough (true). Returns
 * false when the rows ran out before that (the rest of the window, policies launching in it that end past it, comes
 * after every row read here) or after FIRST_ROWS_AT_MOST of them: what was given is still the list's first rows. A
 * read kept on this connection is not used: the caller asks `windowKept` first. `aheadMs`: the head's launches up to
 * that long past the window are given too (outside it, for the caller to skip): such a policy comes into the window
 * at the very top of the list as the clock moves, so an answer kept for a while must know when (renew18).
 */
export function firstUpcomingOf(connection: Connection, fromMs: number, toMs: number, take: (rows: readonly UpcomingCapacity[]) => boolean, aheadMs = 0): boolean {
  const head = (connection.prepare(HEAD_SQL).raw().all({ from: fromMs, headTo: toMs + aheadMs }) as UpcomingTuple[]).map(upcomingRow);
  if (take(head)) return true;
  const along = connection.prepare(ALONG_ENDS_SQL).raw();
  let after = { ms: fromMs, rid: Number.MAX_SAFE_INTEGER };
  for (let read = head.length; read < FIRST_ROWS_AT_MOST; read += FIRST_ROWS_STEP) {
    const rows = (along.all({ from: fromMs, to: toMs, afterMs: after.ms, afterRid: after.rid, limit: FIRST_ROWS_STEP }) as UpcomingTuple[]).map(upcomingRow);
    if (take(rows)) return true;
    const last = rows.at(-1);
    if (!last || rows.length < FIRST_ROWS_STEP) return false;
    after = { ms: last.endMs ?? fromMs, rid: last.rid };
  }
  return false;
}

/**
 * The steps under way on `connection` that hold (fromMs, toMs], if any: a person's whole answer goes on with them (in
 * slices of its own) rather than read the window again from its start beside them.
 */
export function stepsUnderWay(connection: Connection, fromMs: number, toMs: number): UpcomingInSlices | null {
  const steps = underWay.get(connection);
  return steps?.covers(connection, fromMs, toMs) ? steps : null;
}

/** The rows of (fromMs, toMs] from the read kept on `connection`, with the list's version they were read under; null when none holds it. */
export function keptUpcoming(connection: Connection, fromMs: number, toMs: number): { readonly version: string; readonly rows: readonly UpcomingCapacity[] } | null {
  const version = listVersion(connection);
  const known = kept.get(connection);
  if (known?.version !== version || known.fromMs > fromMs || toMs > known.toMs) return null;
  return { version, rows: known.fromMs === fromMs && known.toMs === toMs ? known.rows : known.rows.filter((row) => inWindow(row, fromMs, toMs)) };
}

/** Whether `upcomingOf` would answer (fromMs, toMs] from the read it keeps, without reading the window. */
export function windowKept(connection: Connection, fromMs: number, toMs: number): boolean {
  const version = listVersion(connection);
  const known = kept.get(connection);
  return known?.version === version && known.fromMs <= fromMs && toMs <= known.toMs;
}

/** The SQL's condition over a row already read (a narrower window keeps the SQL's order). */
export function inWindow(row: UpcomingCapacity, fromMs: number, toMs: number): boolean {
  const within = (ms: number | null) => ms !== null && ms > fromMs && ms <= toMs;
  return (within(row.launchMs) && LAUNCHES.has(row.policyStatus)) || (within(row.endMs) && ENDS.has(row.policyStatus));
}
