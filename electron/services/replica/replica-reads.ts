import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import type { ParsedLocalCapacityQuery } from '../../../shared/ipc/offline.js';
import { dictionary } from '../../../shared/records.js';
import { customerCapacities as accountCapacities, customerCapacitiesOfRows, type AccountFilter } from '../customers/replica-accounts.js';
import type { CapacityReplicaDb, StoredDocument } from './capacity-replica-db.js';
import { UpcomingInSlices, firstUpcomingOf, keptUpcoming, stepsUnderWay, upcomingOf, windowKept, type UpcomingCapacity } from '../worklist/replica-upcoming.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { SliceTurn } from './requests-first.js';
import type { Connection } from '../platform/sqlcipher.js';
import { SLICE_MS, slice } from './time-slices.js';
import { commitVersion, listVersion } from './commit-version.js';
import type { SavingsToKeep } from '../overview/replica-overview.js';
import { incompatible, type Replica } from './replica.js';
import type { CapacityReplica } from './capacity-replica.js';
import type { OverviewSummary } from '../../../shared/ipc/overview.js';
import {
  REPLICA_KINDS,
  REPLICA_SCHEMAS,
  RECORD_SCHEMAS,
  type ReplicaEntry,
  type ReplicaKind,
  type ReplicaValue,
  type RecordKind,
  type RecordValue,
} from './replica-kinds.js';

/**
 * What the app reads from one replica, each through its `reading` door (so a
 * damaged page or a moved epoch answers null, never a stale row). Which
 * replica, and whether it was verified first, is the caller's: see
 * CurrentReplica.read.
 */

/** One window of the capacity list as the replica answers it. */
export interface CapacityAnswer {
  readonly rows: CapacityRow[];
  readonly total: number;
  readonly fetchedAt: string;
  /** True while search and sort are answered by SQL because the slim rows are still loading. */
  readonly loading: boolean;
  /** Items the refresh that wrote the list could not keep. */
  readonly leftOut: SkippedItem[];
}

/** A whole kind, with when it was fetched; null when it is not kept. */
export async function readKind<K extends ReplicaKind>(replica: Replica, kind: K): Promise<ReplicaEntry<K> | null> {
  if (kind === 'capacities') return (await readCapacities(replica)) as ReplicaEntry<K> | null;
  return replica.reading((open) => documentsOfKind(open.db, kind));
}

/** A kind kept as documents (every kind but the capacity list, which has its own tables). */
function documentsOfKind<K extends ReplicaKind>(db: CapacityReplicaDb, kind: K): ReplicaEntry<K> | null | typeof incompatible {
  const fetchedAt = db.meta(`${kind}.fetchedAt`);
  if (!fetchedAt) return null;
  const docs = db.documents(kind);
  const raw =
    kind === 'accounts'
      ? docs.length === 1 ? JSON.parse((docs[0] as StoredDocument).body) : undefined
      : dictionary(docs.map((doc) => [doc.id, { fetchedAt: doc.fetchedAt, value: JSON.parse(doc.body) as unknown }] as const));
  const parsed = REPLICA_SCHEMAS[kind].safeParse(raw);
  if (!parsed.success) return incompatible;
  return { fetchedAt, value: parsed.data as ReplicaValue<K> };
}

/** The whole capacity list, as stored (newest first after a sync). Views use capacityWindow instead. */
export function readCapacities(replica: Replica): Promise<ReplicaEntry<'capacities'> | null> {
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    return fetchedAt ? { fetchedAt, value: open.db.allBodies() } : null;
  });
}

/**
 * The linked accounts as last read from each open copy, with the version of the file they were read at: every
 * keystroke of a search under a customer filter asks for them (3,000 accounts are a 380 KB document, parsed
 * and checked each time). Shared between callers: read-only.
 */
const keptAccounts = new WeakMap<CapacityReplicaDb, { readonly version: string; readonly entry: ReplicaEntry<'accounts'> }>();

/** The linked accounts, with when they were fetched; null when not kept. Read again only after a commit. */
export function readAccounts(replica: Replica): Promise<ReplicaEntry<'accounts'> | null> {
  return replica.reading((open) => {
    const version = open.db.readWith(commitVersion);
    // Records held beside a streamed first sync move no version: while there are, the accounts are read each time.
    const holding = open.db.holdsRecords;
    const kept = keptAccounts.get(open.db);
    if (!holding && kept?.version === version) return kept.entry;
    const entry = documentsOfKind(open.db, 'accounts');
    if (!holding && entry !== null && entry !== incompatible) keptAccounts.set(open.db, { version, entry });
    return entry;
  });
}

/** One record of a kind kept per id (a policy's cidrId, a customer's id), with when it was fetched; null when not kept. */
export function readRecord<K extends RecordKind>(replica: Replica, kind: K, id: string): Promise<{ fetchedAt: string; value: RecordValue<K> } | null> {
  return replica.reading((open) => {
    const doc = open.db.document(kind, id);
    if (!doc) return null;
    const value: unknown = JSON.parse(doc.body);
    // Checked against this version's shape, then handed back as written (a view may carry more than the shape names).
    return RECORD_SCHEMAS[kind].safeParse(value).success ? { fetchedAt: doc.fetchedAt, value: value as RecordValue<K> } : incompatible;
  });
}

/** A customer's DR list as kept (customer ids are kept upper case, as the service compares them). */
export function readCyberList(replica: Replica, customerId: string) {
  return readRecord(replica, 'cyberLists', customerId.toUpperCase());
}

/**
 * Where the number of policies the service said a customer's whole DR list holds is kept, one record per customer
 * beside its list (money18, issue 26). A kind of its own, not a field of the list, so a version before it reads the
 * list as before; a total is believed only while it is stamped with its list's age, so a list written since without
 * one (by such a version) has none.
 */
export const CYBER_LIST_TOTALS = 'cyberListTotals';

/** A kept DR list's stated total, or null when none was kept with this writing of the list. */
export function keptTotal(doc: { readonly fetchedAt: string; readonly body: string } | null, listFetchedAt: string): number | null {
  if (!doc || doc.fetchedAt !== listFetchedAt) return null;
  const value: unknown = JSON.parse(doc.body);
  const total = typeof value === 'object' && value !== null ? (value as { total?: unknown }).total : undefined;
  return typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : null;
}

/**
 * A customer's DR list as kept, and whether it may lack some of the list's policies (`partial`): the service said the
 * list holds more than is kept (only a first page was read), or no total was kept with it (a copy of a version before
 * money18, which kept a first page read by the customer page as if it were the whole list).
 */
export function readCyberListKept(replica: Replica, customerId: string): Promise<{ fetchedAt: string; value: RecordValue<'cyberLists'>; partial: boolean } | null> {
  const id = customerId.toUpperCase();
  // The list and its total in one read: a page written between two reads would pair one list with another's total.
  return replica.reading((open) => {
    const doc = open.db.document('cyberLists', id);
    if (!doc) return null;
    const value: unknown = JSON.parse(doc.body);
    if (!RECORD_SCHEMAS.cyberLists.safeParse(value).success) return incompatible;
    const items = value as RecordValue<'cyberLists'>;
    const total = keptTotal(open.db.document(CYBER_LIST_TOTALS, id), doc.fetchedAt);
    return { fetchedAt: doc.fetchedAt, value: items, partial: total === null || items.length < total };
  });
}

/** The ids kept of a kind (the details a sync refreshes, the customers whose DR lists it reads again). */
export async function recordIds(replica: Replica, kind: RecordKind): Promise<string[]> {
  return (await replica.reading((open) => open.db.documentIds(kind))) ?? [];
}

/** One policy's row of the list, looked up by its cidrId; null when the list does not hold it. */
export function capacityRow(replica: Replica, cidrId: string): Promise<{ policy: CapacityRow; fetchedAt: string } | null> {
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    const slim = fetchedAt ? open.db.slimRow(cidrId) : null;
    const policy = slim ? open.db.bodies([slim.rid])[0] : undefined;
    return policy && fetchedAt ? { policy, fetchedAt } : null;
  });
}

/**
 * The activity entries (JSON) versions before own data kept in this copy,
 * for their one move into own data; empty when there are none or the copy
 * cannot be read (then they are gone with it).
 */
export async function legacyActivity(replica: Replica): Promise<string[]> {
  return (await replica.reading((open) => open.db.legacyActivity())) ?? [];
}

/** A window of the capacity list, searched and sorted; null when there is no list. */
export function capacityWindow(replica: Replica, query: ParsedLocalCapacityQuery): Promise<CapacityAnswer | null> {
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    if (!fetchedAt) return null;
    const loading = !open.loaded;
    // Its failure is met again (and reported) by the next read; nothing waits for it here.
    if (loading) void replica.loadRows(open).catch(() => undefined);
    return { ...open.query(query), fetchedAt, loading, leftOut: open.db.leftOut };
  });
}

/** Policies in the list (0 when there is none, or it cannot be read). */
export async function capacityCount(replica: Replica): Promise<number> {
  return (await replica.reading((open) => (open.fetchedAt ? open.count : 0))) ?? 0;
}

/** When the list was fetched; null when there is none (or it cannot be read). */
export function capacitiesFetchedAt(replica: Replica): Promise<string | null> {
  return replica.reading((open) => open.fetchedAt);
}

/**
 * The policies launching or ending in (fromMs, toMs] and the whole records of
 * those `pick` chooses, in one read (so both come from the same copy); null
 * when there is no list.
 */
export function upcomingCapacities(
  replica: Replica,
  fromMs: number,
  toMs: number,
  pick: (upcoming: readonly UpcomingCapacity[]) => readonly number[],
): Promise<{ fetchedAt: string; upcoming: readonly UpcomingCapacity[]; picked: CapacityRow[] } | null> {
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    if (!fetchedAt) return null;
    // The rows and their records of one snapshot: a rewrite's commit between them pairs a row with another's record.
    return open.db.inOneRead(() => {
      const upcoming = open.db.readWith((connection) => upcomingOf(connection, fromMs, toMs));
      return { fetchedAt, upcoming, picked: open.db.bodies(pick(upcoming)) };
    });
  });
}

/** Whether the whole of (fromMs, toMs] is read and kept (an answer is then made from memory, never still counting). */
export function upcomingWindowKept(replica: Replica, fromMs: number, toMs: number): Promise<boolean> {
  return replica.reading((open) => open.db.readWith((connection) => windowKept(connection, fromMs, toMs))).then((kept) => kept === true);
}

/**
 * The first rows of (fromMs, toMs] in the worklist's order, read without the whole window (`firstUpcomingOf`, the
 * head's launches `aheadMs` past it given too), and the whole records of those `page` chooses, in one read; `filled`:
 * `take` had enough before the rows ran out. Null when there is no list, when the window is read already (the whole
 * answer is then made from memory) or when `page` chose none (the rows read held none for it).
 */
export function firstUpcomingCapacities(
  replica: Replica,
  fromMs: number,
  toMs: number,
  take: (rows: readonly UpcomingCapacity[]) => boolean,
  page: () => readonly number[],
  aheadMs = 0,
): Promise<{ fetchedAt: string; picked: CapacityRow[]; filled: boolean } | null> {
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    if (!fetchedAt) return null;
    if (open.db.readWith((connection) => windowKept(connection, fromMs, toMs))) return null;
    // The rows and their records of one snapshot: a rewrite's commit between them pairs a row with another's record.
    return open.db.inOneRead(() => {
      // Enough for the page or not, the rows read are the list's first: what the page holds of them is final.
      const filled = open.db.readWith((connection) => firstUpcomingOf(connection, fromMs, toMs, take, aheadMs));
      const rids = page();
      return rids.length > 0 ? { fetchedAt, picked: open.db.bodies(rids), filled } : null;
    });
  });
}

/**
 * The read `upcomingCapacities` makes of (fromMs, toMs], made ahead in steps (`UpcomingInSlices`) for background
 * work, as many as a slice of `sliceMs` holds: between slices it yields and waits its `turn`, so a person's request
 * meanwhile is answered first; then the read that asks it is answered from memory. Nothing is kept when the copy
 * kept changing. (One step a turn, each turn up to 250 ms while the page's calls came, left 18 of 24 steps to do a
 * second and a half after a first sync of 100,000, at load 18.)
 */
export async function keepUpcomingInSlices(replica: Replica, fromMs: number, toMs: number, turn?: SliceTurn, sliceMs = SLICE_MS, stepRows?: number): Promise<void> {
  // Steps under way that hold the window (the opening's, as a person's whole answer is asked) are gone on with.
  let read: UpcomingInSlices | null = null;
  const step = (connection: Connection) => (read ??= stepsUnderWay(connection, fromMs, toMs) ?? new UpcomingInSlices(fromMs, toMs, stepRows)).step(connection);
  while (await replica.reading((open) => open.fetchedAt !== null && open.db.readWith((connection) => slice(() => step(connection), sliceMs)))) {
    await yieldToEventLoop();
    await turn?.();
  }
}

/** The rows of (fromMs, toMs] from the read kept of the copy (`keptUpcoming`), and the list's version they are of; null when none is kept. */
export function upcomingKept(replica: Replica, fromMs: number, toMs: number): Promise<{ readonly version: string; readonly rows: readonly UpcomingCapacity[] } | null> {
  return replica.reading((open) => (open.fetchedAt === null ? null : open.db.readWith((connection) => keptUpcoming(connection, fromMs, toMs))));
}

/**
 * The whole records of `rids`, chosen from the rows `upcomingKept` gave under `version`; null when the list has been
 * committed since (the ids may now name other policies: the caller reads the window again in one piece).
 */
export function pickedUpcomingCapacities(replica: Replica, version: string, fromMs: number, toMs: number, rids: readonly number[]): Promise<{ fetchedAt: string; picked: CapacityRow[] } | null> {
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    if (!fetchedAt) return null;
    // The version and the records in one snapshot: a commit between them would pair an id with another's record.
    return open.db.inOneRead(() => (open.db.readWith((connection) => keptUpcoming(connection, fromMs, toMs)?.version) === version ? { fetchedAt, picked: open.db.bodies(rids) } : null));
  });
}

/**
 * Which capacity list a read would see, for what is derived from the list alone and kept (the worklist's answers):
 * the reading connection's file (`copy`, compared by identity: a copy opened again starts its versions afresh), the
 * list's commits (`listVersion`: a refresh of the list, a write-through; not the records written beside it) and when
 * the list was fetched; null when there is no list. No row is read.
 */
export function copyState(replica: Replica): Promise<{ readonly copy: object; readonly version: string; readonly fetchedAt: string } | null> {
  return replica.reading((open) => (open.fetchedAt ? { copy: open.db, version: open.db.readWith(listVersion), fetchedAt: open.fetchedAt } : null));
}

/**
 * The overview's figures, counted by the database (the slim rows are not waited for); null when there is no list.
 * Savings counted afresh are kept for the next launch's count, after the answer (a write, in the writes' queue).
 * `betweenSteps`: the count runs a statement at a time with it awaited between them (overviewSteps), so a cold count
 * leaves the main process free to answer the window's other calls meanwhile (issue 25: the launch's first calls waited
 * for the whole count, 62 ms quiet, 239 ms at load 15). A copy written, replaced or found damaged between two steps
 * is counted again in one piece: the figures are always those of one version of the copy.
 */
export async function capacityOverview(replica: Replica, asOf: Date, betweenSteps?: () => Promise<void>): Promise<OverviewSummary | null> {
  const stepped = betweenSteps ? await overviewInSteps(replica, asOf, betweenSteps) : undefined;
  if (stepped !== undefined) return stepped;
  const opened = await replica.opened();
  if (!opened) return null;
  let toKeep: SavingsToKeep | null = null;
  const summary = await replica.reading((open) => (open === opened && open.fetchedAt ? open.overview(asOf, (savings) => (toKeep = savings)) : null));
  if (summary) keepCountedSavings(replica, opened, toKeep);
  return summary;
}

/** The count's steps with betweenSteps awaited between them; undefined when the copy moved meanwhile (count it in one piece). */
async function overviewInSteps(replica: Replica, asOf: Date, betweenSteps: () => Promise<void>): Promise<OverviewSummary | undefined> {
  const opened = await replica.opened();
  let toKeep: SavingsToKeep | null = null;
  // Whatever `reading` answers null (no copy, the copy replaced or unreadable, no list) is left to the count in one piece.
  const started = await replica.reading((open) => (open === opened && open.fetchedAt ? open.overviewInSteps(asOf, (savings) => (toKeep = savings)) : null));
  if (!opened || !started) return undefined;
  for (;;) {
    const step = await replica.reading((open) => {
      if (open !== opened) return null;
      const next = started.steps.next();
      // Read in the same turn as the last statement: nothing can commit between the two.
      return next.done ? { summary: next.value, current: open.version() === started.version } : 'more';
    });
    if (step === null || (step !== 'more' && !step.current)) return undefined;
    if (step !== 'more') {
      keepCountedSavings(replica, opened, toKeep);
      return step.summary;
    }
    await betweenSteps();
  }
}

/** Savings counted afresh, kept for the next count (a write in the writes' queue, after the answer). */
function keepCountedSavings(replica: Replica, opened: CapacityReplica, savings: SavingsToKeep | null): void {
  // Not kept is only counted again; a copy found damaged meanwhile is the reads' and writes' to report.
  if (savings) void replica.writing((open) => (open === opened ? open.keepOverviewSavings(savings) : undefined), false).catch(() => undefined);
}

/** Counts of the overview by customer begun again after a write landed between their steps, before one is made in one piece. */
const TOTALS_TRIES = 3;

/**
 * Each account's active policies, spend and savings, for the overview by customer; null when the list is not kept.
 * Added a step of slim rows at a time, `between` awaited between two steps (by default a turn of the event loop);
 * a count a write landed in is begun again, and after TOTALS_TRIES such counts one is made in one piece, so the
 * answer is always that of one version of the rows.
 */
export async function capacityTotalsByAccount(replica: Replica, asOf: Date, between: () => Promise<void> = () => yieldToEventLoop()) {
  const opened = await replica.opened();
  if (!opened) return null;
  for (let tries = 0; tries < TOTALS_TRIES; tries += 1) {
    await replica.loadRows(opened);
    // Wrapped, so that the steps under way are not what `reading` waits for (it answers as the count begins).
    const counting = await replica.reading((open) => (open === opened && open.fetchedAt ? { steps: open.totalsByAccountInSteps(asOf, between) } : null));
    // The copy replaced, closed or without a list: null, as the read in one piece answers then.
    if (!counting) return null;
    const counted = await counting.steps;
    // A write landed between two steps: counted again.
    if (!counted) continue;
    // Served only as a read of the copy as it is now would be (not after it was found unreadable or replaced meanwhile).
    return replica.reading((open) => (open === opened && open.fetchedAt ? counted : null));
  }
  return replica.reading((open) => (open === opened && open.fetchedAt ? open.totalsByAccount(asOf) : null));
}

/** One customer's policies for their page (electron/services/customers/replica-accounts.ts); null when the list is not kept. */
export function customerCapacities(replica: Replica, filter: AccountFilter, first: number, bought: readonly string[]) {
  const boughtSet = new Set(bought);
  return replica.reading((open) => {
    const fetchedAt = open.fetchedAt;
    if (!fetchedAt) return null;
    // From the slim rows once they are in memory; the file's columns before (or for a fee only in its record).
    const slim = open.rowsOfAccounts(filter, boughtSet);
    return { fetchedAt, ...(slim ? customerCapacitiesOfRows(slim, first, boughtSet) : open.db.readWith((connection) => accountCapacities(connection, filter, first, bought))) };
  });
}

/** Which kinds are kept, and when each was fetched. */
export async function fetchedAtByKind(replica: Replica): Promise<Partial<Record<ReplicaKind, string>>> {
  const answer = await replica.reading((open) => {
    const result: Partial<Record<ReplicaKind, string>> = {};
    for (const kind of REPLICA_KINDS) {
      const at = open.db.meta(`${kind}.fetchedAt`);
      if (at) result[kind] = at;
    }
    return result;
  });
  return answer ?? {};
}
