import type { SkippedItem } from '../../../shared/api/tolerant.js';
import { CAPACITY_STATUSES } from '../../../shared/api/contract-choices.js';
import { type OverviewSummary, type PolicyMilestone } from '../../../shared/ipc/overview.js';
import type { Connection } from '../platform/sqlcipher.js';
import { keepIndexes } from '../replica/kept-indexes.js';
import {
  MAX_SKIPPED_DETAILS,
  UPCOMING_STATUSES,
  breakdown,
  monthlyShare,
  summaryOptions,
  KeptSavings,
  MonthlySavingsTally,
  type SummaryOptions,
} from './summarize.js';

const DAY_MS = 86_400_000;
/** The active policies' savings counted this many rows a step (a few milliseconds of the main process each). */
export const SAVINGS_STEP_ROWS = 1_000;

/**
 * The overview's own indexes on the replica's list, kept by SQLite as rows are written: the statuses alone
 * (counted without reading the wider status-and-date index), the active policies' savings and windows
 * in row order (summed without reading a row of the table), and the launches and ends with the status
 * (and renewal) beside them, so the window's counts read no row of the table either: cold, each policy in
 * the window was a random read of the table (at 100,000, the overview's CPU time went from 124-187 ms to
 * 85-120 ms with them, at load 24). The launches and ends carry the policy's id too, so the soonest
 * milestones are chosen among their ties from the index (see soonest). A copy made before gains them at its
 * next open, once (about 0.5 s at 100,000 on a quiet machine, 4 s at load 20).
 */
const OVERVIEW_INDEXES: Readonly<Record<string, string>> = {
  capacities_overview_status: 'capacities (policy_status)',
  capacities_overview_active: "capacities (rid, instance_type, savings, launch_ms, end_ms) WHERE policy_status = 'ACTIVE'",
  capacities_overview_launch: 'capacities (launch_ms, policy_status, cidr_id)',
  capacities_overview_end: 'capacities (end_ms, policy_status, auto_renewal, cidr_id)',
};

/** Creates the overview's indexes, and makes again one an earlier version defined otherwise (keepIndexes). */
export function keepOverviewIndexes(db: Connection): void {
  keepIndexes(db, 'capacities', OVERVIEW_INDEXES);
}

/**
 * The list's count by status, kept as each row is written (issue 25): the overview's status counts and total,
 * and the list's size, read a handful of rows instead of the 492-page status index (cold at 100,000, the
 * largest read of the overview). Kept by triggers, so every write of a row keeps it (a write-through, a refresh
 * that rewrites only what changed) with no call to forget; a full replace pauses them and counts once at its end
 * (pauseStatusCounts, recountStatusCounts: the seam in CapacityReplicaDb.replaceAll); `first_rid` keeps the order in
 * which a pass over the rows meets each status. Counts of whole policies only: the window's figures depend on
 * the hour they are read at and the savings are sums of fractions whose rounding depends on their order, so
 * both are still counted from their indexes when asked.
 */
const KEPT_STATUS_COUNTS = `
CREATE TABLE IF NOT EXISTS overview_status (policy_status TEXT PRIMARY KEY, policies INTEGER NOT NULL, first_rid INTEGER NOT NULL) STRICT;
CREATE TRIGGER IF NOT EXISTS overview_status_insert AFTER INSERT ON capacities BEGIN
  INSERT INTO overview_status (policy_status, policies, first_rid) VALUES (new.policy_status, 1, new.rid)
    ON CONFLICT (policy_status) DO UPDATE SET policies = policies + 1, first_rid = min(first_rid, excluded.first_rid);
END;
CREATE TRIGGER IF NOT EXISTS overview_status_delete AFTER DELETE ON capacities BEGIN
  DELETE FROM overview_status WHERE policy_status = old.policy_status AND policies = 1;
  UPDATE overview_status SET policies = policies - 1,
    first_rid = CASE WHEN first_rid = old.rid THEN (SELECT min(rid) FROM capacities WHERE policy_status = old.policy_status) ELSE first_rid END
    WHERE policy_status = old.policy_status;
END;
CREATE TRIGGER IF NOT EXISTS overview_status_update AFTER UPDATE OF policy_status ON capacities WHEN old.policy_status IS NOT new.policy_status BEGIN
  DELETE FROM overview_status WHERE policy_status = old.policy_status AND policies = 1;
  UPDATE overview_status SET policies = policies - 1,
    first_rid = CASE WHEN first_rid = old.rid THEN (SELECT min(rid) FROM capacities WHERE policy_status = old.policy_status) ELSE first_rid END
    WHERE policy_status = old.policy_status;
  INSERT INTO overview_status (policy_status, policies, first_rid) VALUES (new.policy_status, 1, new.rid)
    ON CONFLICT (policy_status) DO UPDATE SET policies = policies + 1, first_rid = min(first_rid, excluded.first_rid);
END;
`;

/**
 * The active policies' monthly savings as last counted, kept with the copy (issue 25): the one part of the
 * overview that read every active policy (the partial index, about 60 % of a cold count at 100,000: 600-800 ms of
 * 1,100 at load 31). Not a running sum, which could differ from a recount by a cent (see above): the tally of
 * the last count, unrounded, beside `changes`, which the triggers move whenever a row that counts in it is written
 * (an active policy added, gone, or changed in what the tally reads, or a policy becoming or ceasing to be
 * active); a full replace moves it with its recount. The tally is used only while `counted_at` equals `changes`:
 * anything written since makes the next overview count again, and keep what it counted (keepSavings).
 */
const KEPT_SAVINGS = `
CREATE TABLE IF NOT EXISTS overview_savings (id INTEGER PRIMARY KEY CHECK (id = 1), changes INTEGER NOT NULL, counted_at INTEGER, tally TEXT) STRICT;
INSERT INTO overview_savings (id, changes) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
CREATE TRIGGER IF NOT EXISTS overview_savings_insert AFTER INSERT ON capacities WHEN new.policy_status = 'ACTIVE' BEGIN
  UPDATE overview_savings SET changes = changes + 1;
END;
CREATE TRIGGER IF NOT EXISTS overview_savings_delete AFTER DELETE ON capacities WHEN old.policy_status = 'ACTIVE' BEGIN
  UPDATE overview_savings SET changes = changes + 1;
END;
CREATE TRIGGER IF NOT EXISTS overview_savings_update AFTER UPDATE OF policy_status, instance_type, savings, launch_ms, end_ms ON capacities
  WHEN old.policy_status = 'ACTIVE' OR new.policy_status = 'ACTIVE' BEGIN
  UPDATE overview_savings SET changes = changes + 1;
END;
`;

/** The counts by status as a pass over every row makes them: what the kept table must always equal. */
export const RECOUNTED_STATUSES = 'SELECT policy_status, count(*), min(rid) FROM capacities GROUP BY policy_status ORDER BY min(rid)';

/**
 * Creates the kept counts with the replica's schema; a copy made before them is counted once, at its next open
 * (one read of the status index), in the same transaction as the table's creation.
 */
export function keepStatusCounts(db: Connection): void {
  db.transaction(() => {
    const isNew = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'overview_status'`).get() === undefined;
    db.exec(KEPT_STATUS_COUNTS);
    db.exec(KEPT_SAVINGS);
    if (isNew) recountStatusCounts(db);
  })();
}

/**
 * A full replace of the list writes every row: its triggers would cost about 3 s of CPU at 100,000 (28.8-30.3 s
 * without, 32.4 s with, load 17-28), where one count after the write costs one read of the fresh status index.
 * The write calls this before its first row, inside its transaction...
 */
export function pauseStatusCounts(db: Connection): void {
  db.exec(PAUSE_STATUS_COUNTS);
}

/** ...and this after its last, before its COMMIT: the counts of the new list, and the triggers back for the writes after it. */
export function recountStatusCounts(db: Connection): void {
  db.exec(RECOUNT_STATUS_COUNTS);
}

/** The two steps as SQL text, for a rewrite run by a thread with a connection of its own (replica/rewrite-thread.ts). */
// The kept savings' triggers pause too, and the recount moves `changes` once: every row was written.
export const PAUSE_STATUS_COUNTS = `DROP TRIGGER IF EXISTS overview_status_insert; DROP TRIGGER IF EXISTS overview_status_delete; DROP TRIGGER IF EXISTS overview_status_update;
DROP TRIGGER IF EXISTS overview_savings_insert; DROP TRIGGER IF EXISTS overview_savings_delete; DROP TRIGGER IF EXISTS overview_savings_update;`;
export const RECOUNT_STATUS_COUNTS = `DELETE FROM overview_status; INSERT INTO overview_status (policy_status, policies, first_rid) ${RECOUNTED_STATUSES.replace(' ORDER BY min(rid)', '')};
${KEPT_STATUS_COUNTS}${KEPT_SAVINGS}UPDATE overview_savings SET changes = changes + 1;`;

/** The kept counts, in the order a pass over the rows meets each status. */
export function keptStatusCounts(db: Connection): Array<[string, number]> {
  return db.prepare('SELECT policy_status, policies FROM overview_status ORDER BY first_rid').raw().all() as Array<[string, number]>;
}

/** The replica's statuses as SQL text: the constant, never what a row holds. */
const UPCOMING_SQL = UPCOMING_STATUSES.map((status) => `'${status}'`).join(', ');

/** Where a policy's milestone of one kind falls in the window, for a status that still launches or ends. */
// The unary + keeps SQLite off the status index (it would visit every active and ready policy): the launch and
// end indexes answer the window, a few days' policies of the whole list.
const IN_WINDOW: Readonly<Record<PolicyMilestone['kind'], string>> = {
  launch: `launch_ms >= @from AND launch_ms < @to AND +policy_status IN (${UPCOMING_SQL})`,
  end: `end_ms >= @from AND end_ms < @to AND +policy_status IN (${UPCOMING_SQL})`,
};
const COLUMN = { launch: { ms: 'launch_ms', at: 'launch_at' }, end: { ms: 'end_ms', at: 'end_at' } } as const;
// Auto-renewal as the slim row reads it: anything but 1 is off.
const RENEWAL_RISK = `end_ms >= @from AND end_ms < @to AND +policy_status = 'ACTIVE' AND auto_renewal <> 1`;

/**
 * The overview's figures counted by the replica's database, over its indexed
 * columns (status, launch, end), instead of loading every policy's slim row
 * first: the figures the person sees first on a launch with a copy on disk.
 * It equals summarizeCapacities over the slim rows (test/integration/replica-overview.test.ts
 * compares the two on hostile data); the arithmetic that must round the same
 * (the monthly savings, the instance families) is the same JavaScript, over the
 * active policies only, in the same order.
 */
export function replicaOverview(
  db: Connection,
  asOf: Date,
  leftOut: readonly SkippedItem[],
  options: SummaryOptions = {},
  counted: (savings: SavingsToKeep) => void = () => undefined,
): OverviewSummary {
  const steps = overviewSteps(db, asOf, leftOut, options, counted);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * replicaOverview as steps, one statement each (issue 25): the caller may let the event loop run between them, so a
 * cold count (each statement's pages read from the disk) no longer holds up every other answer of the main process
 * for its whole length. Steps run on one connection but in separate read transactions: a caller that yields between
 * them must compare the copy's version before and after (capacityOverviewInSteps), or the figures could mix two.
 */
export function* overviewSteps(
  db: Connection,
  asOf: Date,
  leftOut: readonly SkippedItem[],
  options: SummaryOptions = {},
  counted: (savings: SavingsToKeep) => void = () => undefined,
): Generator<void, OverviewSummary, void> {
  const { windowDays, listLimit, familyLimit } = summaryOptions(options);
  const from = asOf.getTime();
  const window = { from, to: from + windowDays * DAY_MS };

  // Known statuses in contract order, then any other in the order its first policy was written (as a pass over the rows meets them).
  const byStatus = new Map<string, number>(CAPACITY_STATUSES.map((status) => [status, 0]));
  const statuses = keptStatusCounts(db);
  for (const [status, count] of statuses) byStatus.set(status, count);
  yield;

  const timeline = Array.from({ length: windowDays }, (_, day) => ({ day, launches: 0, ends: 0 }));
  const countsOf = (kind: PolicyMilestone['kind']) => {
    const counts = new Map<string, number>();
    const rows = db
      .prepare(`SELECT policy_status, CAST((${COLUMN[kind].ms} - @from) / ${DAY_MS} AS INTEGER) AS day, count(*) FROM capacities WHERE ${IN_WINDOW[kind]} GROUP BY 1, 2`)
      .raw()
      .all(window) as Array<[string, number, number]>;
    for (const [status, day, count] of rows) {
      counts.set(status, (counts.get(status) ?? 0) + count);
      const slot = timeline[day] as (typeof timeline)[number];
      if (kind === 'launch') slot.launches += count;
      else slot.ends += count;
    }
    return counts;
  };
  const launching = countsOf('launch');
  yield;
  const ending = countsOf('end');
  yield;

  const upcoming = soonest(db, window, listLimit, [
    { kind: 'launch', where: IN_WINDOW.launch },
    { kind: 'end', where: IN_WINDOW.end },
  ]);
  yield;
  const renewalTotal = (db.prepare(`SELECT count(*) FROM capacities WHERE ${RENEWAL_RISK}`).pluck().get(window) as number) ?? 0;
  yield;
  const renewalRisk = soonest(db, window, listLimit, [{ kind: 'end', where: RENEWAL_RISK }]);
  yield;

  const { tally: savings, toKeep } = yield* activeSavings(db, from);
  if (toKeep) counted(toKeep);

  return {
    asOf: asOf.toISOString(),
    windowDays,
    totalPolicies: statuses.reduce((sum, [, count]) => sum + count, 0),
    byStatus: [...byStatus].map(([status, count]) => ({ status, count })),
    launching: breakdown(launching),
    ending: breakdown(ending),
    endingWithoutRenewal: { total: renewalTotal, soonest: renewalRisk },
    monthlySavings: savings.summary(familyLimit),
    timeline,
    upcoming,
    skipped: leftOut.slice(0, MAX_SKIPPED_DETAILS),
    skippedCount: leftOut.length,
  };
}

/**
 * What a count of the savings found to keep: the tally and the `changes` it was counted at. The count runs on the
 * reading connection; keeping it is a write (keepSavings), which the caller hands to the replica's writes.
 */
export interface SavingsToKeep {
  readonly tally: KeptSavings;
  readonly countedAt: number;
}

/** The savings counted at `countedAt` kept, unless a row was written since (then the next overview counts again). */
export function keepSavings(db: Connection, kept: SavingsToKeep): void {
  db.prepare('UPDATE overview_savings SET counted_at = changes, tally = ? WHERE changes = ?').run(JSON.stringify(kept.tally), kept.countedAt);
}

/**
 * The active policies' monthly savings at `nowMs` (running ones summed, those launching later apart): as kept when
 * nothing that counts in them was written since and no active policy's launch lies between the "now" they were
 * counted at and this one (a policy launching tomorrow runs tomorrow with no write: savings15), else counted.
 */
function* activeSavings(db: Connection, nowMs: number): Generator<void, { readonly tally: MonthlySavingsTally; readonly toKeep: SavingsToKeep | null }, void> {
  const kept = db.prepare('SELECT changes, counted_at, tally FROM overview_savings').raw().get() as [number, number | null, string | null] | undefined;
  if (kept && kept[1] === kept[0] && kept[2] !== null) {
    // Written by this code; one that does not read (another version's, or sums JSON cannot hold) is counted again.
    const parsed = KeptSavings.safeParse(parseJson(kept[2]));
    if (parsed.success) {
      const tally = MonthlySavingsTally.from(parsed.data);
      if (tally.holdsAt(nowMs)) return { tally, toKeep: null };
    }
  }
  // Row order, as a pass over the rows adds them: a float sum depends on its order, and the figures round to the cent.
  // A step a page of rows: counted in one piece, the count after every sync that wrote a row was one turn of the main
  // process of 60,000 rows at 100,000 policies (2.7 s at load 39, renew16). The caller that yields between steps
  // compares the copy's version before and after, so pages of two versions are never summed together.
  const tally = new MonthlySavingsTally();
  const page = db.prepare(
    `SELECT rid, instance_type, savings, launch_ms, end_ms FROM capacities INDEXED BY capacities_overview_active WHERE policy_status = 'ACTIVE' AND rid > ? ORDER BY rid LIMIT ${SAVINGS_STEP_ROWS}`,
  ).raw();
  for (let after = -Infinity; ; yield) {
    const rows = page.all(after) as Array<[number, string, number | null, number | null, number | null]>;
    for (const [, instanceType, saved, launchMs, endMs] of rows) {
      tally.add(instanceType, monthlyShare(saved ?? 0, launchMs ?? Number.NaN, endMs ?? Number.NaN), launchMs ?? Number.NaN, nowMs);
    }
    if (rows.length < SAVINGS_STEP_ROWS) break;
    after = (rows[rows.length - 1] as [number, ...unknown[]])[0];
  }
  return { tally, toKeep: kept ? { tally: tally.kept(), countedAt: kept[0] } : null };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The first `limit` milestones by bySoonest. SQL finds the instant of the limit-th soonest; every milestone up
 * to it (ties included) is chosen from the launch and end indexes, which hold the id beside the instant, and
 * only the chosen ones are read from their rows. Ties are many where policies share an instant (the sandbox
 * seeds hundreds on one midnight): read from their rows, each was a page from the disk at a cold launch, 300-480
 * ms of a cold count at load 32 (issue 25). The chosen rows are read by their row id, which every index entry
 * holds: by the policy's id each read went down the id's own index first, then the table, about twice the
 * pages from the disk (the count's largest statement cold: 27-147 ms of wall time at load 30, overview13).
 */
function soonest(
  db: Connection,
  window: { from: number; to: number },
  limit: number,
  parts: ReadonlyArray<{ kind: PolicyMilestone['kind']; where: string }>,
): PolicyMilestone[] {
  if (limit <= 0) return [];
  const instants = parts.map(({ kind, where }) => `SELECT ${COLUMN[kind].ms} AS ms FROM capacities WHERE ${where}`).join(' UNION ALL ');
  const cutoff = db.prepare(`SELECT ms FROM (${instants}) ORDER BY ms LIMIT 1 OFFSET ?`).pluck().get({ ...window }, limit - 1) as number | undefined;
  const until = cutoff ?? window.to;
  const candidates: Array<{ readonly kind: PolicyMilestone['kind']; readonly cidrId: string; readonly rid: number; readonly ms: number }> = [];
  for (const { kind, where } of parts) {
    const rows = db
      .prepare(`SELECT ${COLUMN[kind].ms}, cidr_id, rid FROM capacities WHERE ${where} AND ${COLUMN[kind].ms} <= @until`)
      .raw()
      .all({ ...window, until }) as Array<[number, string, number]>;
    for (const [ms, cidrId, rid] of rows) candidates.push({ kind, cidrId, rid, ms });
  }
  // bySoonest's order: a row's instant is its date text as Date.parse reads it (the replica's toRow).
  const chosen = candidates.sort((a, b) => a.ms - b.ms || a.cidrId.localeCompare(b.cidrId) || a.kind.localeCompare(b.kind)).slice(0, limit);
  const named = db.prepare(`SELECT policy_name, policy_status, launch_at, end_at FROM capacities WHERE rid = ? AND cidr_id = ?`).raw();
  // Each statement is a read transaction of its own, and the rewrite thread commits from its own thread: a rewrite
  // clears the table and numbers its rows again, so a row id read above may hold another policy now. Its row is then
  // read by the policy's id, as before overview13 (the chosen milestones and their names stay of one policy).
  const byId = () => db.prepare(`SELECT policy_name, policy_status, launch_at, end_at FROM capacities WHERE cidr_id = ?`).raw();
  return chosen.flatMap(({ kind, cidrId, rid }) => {
    const row = (named.get(rid, cidrId) ?? byId().get(cidrId)) as [string, string, string, string] | undefined;
    return row ? [{ cidrId, policyName: row[0], policyStatus: row[1], kind, at: kind === 'launch' ? row[2] : row[3] }] : [];
  });
}
