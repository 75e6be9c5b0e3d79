import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { CapacityRow } from '../../../shared/api/readers.js';
import type { CyberListItem } from '../../../shared/api/cyber.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import type { RefreshWrites, StoredDocument } from './capacity-replica-db.js';
import type { CapacityReplica } from './capacity-replica.js';
import type { FirstSyncStream } from './first-sync-stream.js';
import type { ListedAgainstStored } from './listed-against-stored.js';
import type { Replica } from './replica.js';
import { CYBER_LIST_TOTALS, keptTotal } from './replica-reads.js';
import { ACCOUNTS_ID, RECORD_SCHEMAS, type RecordKind, type RecordValue, type ReplicaKind, type ReplicaValue } from './replica-kinds.js';

/**
 * What the app writes to one replica, each through its `writing` door (one
 * writer at a time; a copy found damaged while writing is replaced).
 */

/** Adds or replaces one record (a detail read online, say); the other records of the kind are not rewritten. */
export async function writeRecord<K extends RecordKind>(replica: Replica, kind: K, id: string, value: RecordValue<K>, fetchedAt: Date = new Date()): Promise<void> {
  const body = JSON.stringify(value);
  await replica.writing((open) => open.db.putDocument(kind, { id, fetchedAt: fetchedAt.toISOString(), body }));
}

/**
 * Write-through of a page of a customer's DR list read online: its policies
 * join the ones kept for that customer (a page is not the whole list, so
 * nothing kept is dropped), so the list opened a minute ago is there offline.
 * `statedTotal`: how many policies the service said the whole list holds (the page's `total`, of a read not filtered
 * by status or name), kept beside the list so that offline a first page is not taken for the whole list (issue 26);
 * a filtered page carries the last one forward. Read and written in one turn of the writes' queue.
 */
export async function addCyberPage(replica: Replica, customerId: string, items: readonly CyberListItem[], statedTotal?: number): Promise<void> {
  const id = customerId.toUpperCase();
  const fetchedAt = new Date().toISOString();
  await replica.writing((open) => {
    const stored = open.db.document('cyberLists', id);
    const value: unknown = stored ? JSON.parse(stored.body) : null;
    const kept = RECORD_SCHEMAS.cyberLists.safeParse(value).success ? (value as CyberListItem[]) : [];
    const byCidrId = new Map(kept.map((item) => [item.cidrId, item]));
    for (const item of items) byCidrId.set(item.cidrId, item);
    const total = statedTotal ?? (stored ? keptTotal(open.db.document(CYBER_LIST_TOTALS, id), stored.fetchedAt) : null);
    open.db.putDocument('cyberLists', { id, fetchedAt, body: JSON.stringify([...byCidrId.values()]) });
    if (total !== null) open.db.putDocument(CYBER_LIST_TOTALS, { id, fetchedAt, body: JSON.stringify({ total }) });
  });
}

/**
 * Every customer's DR list as a sync read it whole, with how many policies each holds as listed (those that did not
 * read in full are counted here and not kept: the kept list is then less than its total), in one turn of the queue.
 */
export async function writeCyberLists(replica: Replica, lists: Record<string, { fetchedAt: string; value: CyberListItem[]; listed: number }>, fetchedAt: Date): Promise<void> {
  const at = fetchedAt.toISOString();
  const entries = Object.entries(lists);
  await replica.writing((open) => {
    open.db.replaceDocuments('cyberLists', entries.map(([id, list]) => ({ id, fetchedAt: list.fetchedAt, body: JSON.stringify(list.value) })), at);
    open.db.replaceDocuments(CYBER_LIST_TOTALS, entries.map(([id, list]) => ({ id, fetchedAt: list.fetchedAt, body: JSON.stringify({ total: list.listed }) })), at);
  });
}

/**
 * A DR policy read in full (a view, or a termination's read-back): its item in its customer's kept list says what the
 * view says (status, termination triggered), so the list read offline agrees with the view. Only an item the list
 * already holds is changed (a view is not a page: it adds nothing); nothing is written when it already agrees.
 * Read and written in one turn of the writes' queue, so a refresh's or a page's list committed meanwhile is not
 * overwritten by the list read before it; the list keeps its age: one item seen says nothing of the others (review14).
 */
export async function keepCyberItemAsViewed(replica: Replica, customerId: string, cidrId: string, seen: { readonly policyStatus: string; readonly terminationTriggered: boolean | null }): Promise<void> {
  const id = customerId.toUpperCase();
  await replica.writing((open) => {
    const stored = open.db.document('cyberLists', id);
    const value: unknown = stored ? JSON.parse(stored.body) : null;
    // Checked, then changed as written (as readRecord hands it back: an item may carry more than the shape names).
    const kept = RECORD_SCHEMAS.cyberLists.safeParse(value).success ? (value as CyberListItem[]) : null;
    const item = kept?.find((entry) => entry.cidrId === cidrId);
    if (!stored || !kept || !item) return;
    const terminationTriggered = seen.terminationTriggered ?? item.terminationTriggered;
    if (item.policyStatus === seen.policyStatus && item.terminationTriggered === terminationTriggered) return;
    const changed: CyberListItem = { ...item, policyStatus: seen.policyStatus, ...(terminationTriggered === undefined ? {} : { terminationTriggered }) };
    const body = JSON.stringify(kept.map((entry) => (entry === item ? changed : entry)));
    open.db.putDocument('cyberLists', { id, fetchedAt: stored.fetchedAt, body });
  });
}

/**
 * Write-through of one policy the service just answered with: one row, into
 * a copy that holds the list (a copy not yet synced stays empty: its age would
 * lie). A refresh under way is told, a first sync included, so its older page
 * does not undo it. The copy is checked against the disk first. Returns
 * whether the row was written now.
 */
export async function upsertCapacity(replica: Replica, policy: CapacityPolicy): Promise<boolean> {
  await replica.revalidate();
  let written = false;
  await replica.writing((open) => {
    // Inside the write: the refresh's own write, queued behind or ahead of it, sees it or follows it.
    replica.wroteThrough(policy);
    if (!open.fetchedAt) return;
    open.upsert(policy);
    written = true;
  }, false);
  return written;
}

/**
 * A full refresh of the capacity list in a single commit, with the items it
 * could not keep (no id), so every view can say what was left out; the
 * policies in `writtenThrough` (since the refresh began) stay as written.
 */
export async function writeCapacities(
  replica: Replica,
  rows: readonly CapacityRow[],
  fetchedAt: Date = new Date(),
  leftOut: readonly SkippedItem[] = [],
  writtenThrough?: ReadonlyMap<string, CapacityRow>,
): Promise<RefreshWrites | null> {
  const at = fetchedAt.toISOString();
  let writes: RefreshWrites | null = null;
  await replica.writing(async (open) => {
    writes = await open.replaceAll(rows, at, leftOut, writtenThrough);
    await replica.freshListWritten(open, rows.length);
  });
  return writes;
}

/**
 * A refresh over the copy from a list compared with it as its pages came (ListedAgainstStored): the rows that
 * differ written in one commit. Null, nothing written, when the whole list is to be written instead (the copy
 * changed meanwhile, or most of the list differs): the caller then writes it with writeCapacities.
 */
export async function writeCapacityChanges(
  replica: Replica,
  listed: ListedAgainstStored,
  fetchedAt: Date,
  leftOut: readonly SkippedItem[],
  writtenThrough: ReadonlyMap<string, CapacityRow>,
): Promise<RefreshWrites | null> {
  let writes: RefreshWrites | null = null;
  await replica.writing(async (open) => {
    writes = await open.replaceChanges(listed, fetchedAt.toISOString(), leftOut, writtenThrough);
    if (writes) await replica.freshListWritten(open, listed.size);
  });
  return writes;
}

/** The stored rows' record hashes a refresh over the copy compares its pages with; null when there is no list yet. */
export async function storedHashes(replica: Replica): Promise<Map<string, string | null> | null> {
  try {
    const open = await replica.opened();
    if (!open?.fetchedAt) return null;
    return await open.storedHashes();
  } catch {
    // A copy that cannot be read now: the list is then held whole and written as before, where a damaged copy is dealt with.
    return null;
  }
}

/** A first sync written while its pages are fetched (streamFirstSync). */
export interface StreamedFirstSync {
  /** The next page's rows, in page order (the pages' order: oldest first). */
  add(rows: readonly CapacityRow[]): Promise<void>;
  /** Commits the list, after the last page; resolves once committed, with the policies kept. */
  finish(fetchedAt: Date, leftOut: readonly SkippedItem[], writtenThrough: ReadonlyMap<string, CapacityRow>): Promise<number>;
  /** Rolls it back: the copy stays as it was (empty). */
  abandon(): Promise<void>;
  /** The ids of the newest policies handed so far, newest first. */
  newest(n: number): string[];
  /** Policies handed so far, each id once. */
  readonly count: number;
}

/**
 * A first sync (a copy on a file with no list yet) written as its pages come, by the rewrite thread in one
 * transaction from the first page to its commit after the last: the write overlaps the fetch instead of
 * following it. Null when the copy cannot take one (in memory, a copy that holds a list, a thread that could
 * not start): the list is then fetched whole and written by writeCapacities. Only its start and its commit
 * wait in the write queue; meanwhile the thread holds the file's write lock, the app's documents go into its
 * transaction, and a write-through of a policy is only noted (a copy not yet synced takes none, upsertCapacity).
 */
export async function streamFirstSync(replica: Replica): Promise<StreamedFirstSync | null> {
  let stream: FirstSyncStream | null = null;
  let open: CapacityReplica | null = null;
  await replica.writing(async (replicaOpen) => {
    open = replicaOpen;
    stream = await replicaOpen.firstSyncStream();
  });
  const started = stream as FirstSyncStream | null;
  const written = open as CapacityReplica | null;
  if (!started || !written) return null;
  const beside = replica.writingBeside();
  return {
    add: (rows) => started.add(rows),
    newest: (n) => started.newest(n),
    get count() {
      return started.count;
    },
    finish: async (fetchedAt, leftOut, writtenThrough) => {
      let kept = 0;
      try {
        // In the queue: a write-through queued before the commit is noted before the list is read for it.
        await replica.writing(async () => {
          kept = await started.finish(fetchedAt.toISOString(), leftOut, writtenThrough);
          await replica.freshListWritten(written, kept);
        });
      } finally {
        beside.done();
      }
      return kept;
    },
    abandon: async () => {
      try {
        await started.abandon();
      } finally {
        beside.done();
      }
    },
  };
}

/** Replaces one kind in a single commit. */
export async function writeKind<K extends ReplicaKind>(replica: Replica, kind: K, value: ReplicaValue<K>, fetchedAt: Date = new Date()): Promise<void> {
  if (kind === 'capacities') {
    await writeCapacities(replica, value as ReplicaValue<'capacities'>, fetchedAt);
    return;
  }
  const at = fetchedAt.toISOString();
  const documents: StoredDocument[] =
    kind === 'accounts'
      ? [{ id: ACCOUNTS_ID, fetchedAt: at, body: JSON.stringify(value) }]
      : Object.entries(value as Record<string, { fetchedAt: string; value: unknown }>).map(([id, entry]) => ({
          id,
          fetchedAt: entry.fetchedAt,
          body: JSON.stringify(entry.value),
        }));
  await replica.writing((open) => open.db.replaceDocuments(kind, documents, at));
}

/** Drops the activity record versions before own data kept in the copy (their owner's own data was removed at their request). */
export async function forgetLegacyActivity(replica: Replica): Promise<void> {
  await replica.writing((open) => open.db.forgetLegacyActivity(), false);
}
