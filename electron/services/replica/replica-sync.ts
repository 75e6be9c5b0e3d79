import { CyberListItem } from '../../../shared/api/cyber.js';
import { completeAccounts, completeCapacityView, completeCyberView, type CyberRow } from '../../../shared/api/readers.js';
import type { SyncProgress, SyncSummary } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { dictionary } from '../../../shared/records.js';
import { countOf } from '../../../shared/format/plural.js';
import { syncCapacities, syncComparedCapacities, type SyncedCapacities } from '../bulk/capacity-sync.js';
import type { BulkProgress } from '../bulk/fetch-all-pages.js';
import { fetchAllPages } from '../bulk/fetch-all-pages.js';
import type { Logger } from '../logging/file-logger.js';
import type { SessionService } from '../session/session-service.js';
import type { Replica } from './replica.js';
import { capacitiesFetchedAt, recordIds } from './replica-reads.js';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { storedHashes, streamFirstSync, writeCapacities, writeCapacityChanges, writeCyberLists, writeKind, type StreamedFirstSync } from './replica-writes.js';
import { ListedAgainstStored } from './listed-against-stored.js';
import { ListPageThread } from './list-page-thread.js';
import type { ComparedRow, StoredHashes } from './list-page-reading.js';
import { inSlices } from './time-slices.js';
import { REWRITE_THREAD_FROM_ROWS } from './capacity-replica-db.js';

const PAGE_SIZE = 100;
/** Requests in flight at once, for every list and detail of a refresh. */
export const CONCURRENCY = 4;
/** Detail views kept fresh by a sync besides the ones the user opened. */
const RECENT_DETAILS = 50;
const MAX_CYBER_VIEWS = 200;

export interface ReplicaSyncDeps {
  readonly session: Pick<SessionService, 'status' | 'authorized'>;
  readonly logger: Pick<Logger, 'warn'>;
  /** Customer ids whose DR policies should be kept for offline review. */
  readonly customersToSync?: (() => readonly string[]) | undefined;
  /**
   * Told once the capacity list has committed, while the rest of the refresh (details, linked accounts, DR lists)
   * is still fetched: what is made from the list alone can be made then (the Renewals' opening, issue 28).
   */
  readonly listCommitted?: (() => void) | undefined;
}

/**
 * One full refresh of a replica from the service, as the app runs it: the
 * capacity list (written in one commit: what changed on the main connection,
 * in time slices that yield; a whole rewrite, as a first sync, by a thread of
 * its own; its checkpoint runs on a thread of its own too), the
 * details opened and the newest ones, linked accounts, the DR lists of the
 * remembered customers and their details; progress reported phase by phase.
 * Whoever calls it keeps one refresh at a time and turns an abort into
 * "cancelled" (ReplicaRefreshRunner).
 */
export async function refreshReplica(replica: Replica, deps: ReplicaSyncDeps, signal: AbortSignal, progress: (p: SyncProgress) => void): Promise<SyncSummary> {
  const started = Date.now();
  // A streamed first sync reads newest first: a policy created on the service meanwhile pushes the later pages a
  // place on, so an existing one can be on no page read. Such a list is never committed (a copy missing a policy,
  // stamped fresh, would stand if what follows were cancelled): it is rolled back and the list read again the
  // ordinary way (oldest first, written whole), into the copy still empty.
  const list = await steadyList(replica, deps, signal, progress);
  const { synced, kept, newest, miscount, fetchedAt } = list;
  // Not awaited: a failed commit is the refresh's failure (whileCommitting), told nothing here.
  void list.committed.then(() => deps.listCommitted?.(), () => undefined);

  // A streamed first sync's commit (the thread's: the full-text index, the counts, the COMMIT) runs meanwhile.
  const details = await whileCommitting(list.committed, async () => {
    const opened = await recordIds(replica, 'capacityViews');
    const detailIds = [...new Set([...opened, ...newest])];
    return fetchEach(deps.session, detailIds, signal, 'details', progress, (client, token, id, signal) =>
      // Read as the detail view reads it; only a view that read in full is kept (the list's row stands in for the rest).
      client.read('describeCapacity', { token, signal, params: { cidr_id: id } }).then(completeCapacityView),
    );
  });
  replica.warm().catch(() => undefined);
  await writeKind(replica, 'capacityViews', stampAll(details, fetchedAt), fetchedAt);

  progress({ phase: 'accounts', fetched: 0, total: 1 });
  const accountsRead = await deps.session.authorized((client, token) =>
    client.read('linkedAccounts', { token, signal: signal }),
  );
  // Kept only when every account read in full: a partial list would hide accounts the copy knew.
  const accounts = completeAccounts(accountsRead);
  if (accounts) await writeKind(replica, 'accounts', accounts, fetchedAt);
  else deps.logger.warn('replica', 'linked accounts did not read in full; the copy keeps the last full list');

  const customers = [
    ...new Set([...(deps.customersToSync?.() ?? []), ...(await recordIds(replica, 'cyberLists'))]),
  ].map((c) => c.toUpperCase());
  const cyberLists = dictionary<{ fetchedAt: string; value: CyberListItem[]; listed: number }>();
  let cyberLeftOut = 0;
  for (const [i, customerId] of customers.entries()) {
    progress({ phase: 'cyber', fetched: i, total: customers.length });
    try {
      const rows = await deps.session.authorized((client, token) =>
        fetchAllPages<CyberRow>({
          pageSize: PAGE_SIZE,
          concurrency: CONCURRENCY,
          signal,
          idOf: (row) => row.cidrId,
          fetchPage: async (page, pageSize, signal) => {
            const answer = await client.read('listCyberPolicies', { token, signal, params: { cid_ext: customerId }, query: { page, pageSize } });
            cyberLeftOut += answer.skipped.length;
            return answer;
          },
        }),
      );
      // The offline DR list keeps the policies that read in full; the others are counted and said.
      const items = rows.flatMap((row) => {
        const parsed = CyberListItem.safeParse(row);
        return parsed.success ? [parsed.data] : [];
      });
      cyberLeftOut += rows.length - items.length;
      cyberLists[customerId] = { fetchedAt: fetchedAt.toISOString(), value: items, listed: rows.length };
    } catch (error) {
      // A customer that no longer exists is dropped; anything else stops the sync.
      if (!(error instanceof AppFailure && error.error.kind === 'not-found')) throw error;
    }
  }
  await writeCyberLists(replica, cyberLists, fetchedAt);
  const cyberIds = Object.values(cyberLists)
    .flatMap((list) => list.value.map((item) => item.cidrId))
    .slice(0, MAX_CYBER_VIEWS);
  const cyberViews = await fetchEach(deps.session, cyberIds, signal, 'cyber', progress, (client, token, id, signal) =>
    client.read('viewCyberPolicy', { token, signal, params: { cidr_id: id } }).then(completeCyberView),
  );
  await writeKind(replica, 'cyberViews', stampAll(cyberViews, fetchedAt), fetchedAt);

  const summary: SyncSummary = {
    capacities: kept,
    capacitiesLeftOut: synced.leftOut.length,
    details: Object.keys(details).length,
    accounts: accounts?.length ?? 0,
    cyberPolicies: Object.values(cyberLists).reduce((n, l) => n + l.value.length, 0),
    customers: Object.keys(cyberLists).length,
    durationMs: Date.now() - started,
    fetchedAt: fetchedAt.toISOString(),
  };
  progress({ phase: 'done', fetched: summary.capacities, total: summary.capacities, ...doneMessage(miscount, synced.leftOut.length, cyberLeftOut) });
  return summary;
}

/**
 * The capacity list read until it holds still, then written. A list that shifted while its pages were read (a page
 * repeated, a delete pulling the later pages back) can leave a policy on no page read: written as it came, the copy
 * would lose policies it held and be stamped fresh. It is read again, up to LIST_READS times; still shifting, nothing
 * is written and the refresh fails with why, the copy as it was (its time too).
 */
async function steadyList(replica: Replica, deps: ReplicaSyncDeps, signal: AbortSignal, progress: (p: SyncProgress) => void) {
  let stream = true;
  /** Where the last read's pages ended short of the total it said (null: none did). */
  let endedAt: number | null = null;
  for (let shifted = 0; ; ) {
    const list = await refreshList(replica, deps, signal, progress, { stream, endedAt });
    if (list === 'shifted' || list instanceof EndedShort) {
      shifted += 1;
      const how = list === 'shifted' ? 'moved while it was read' : `ended at ${list.sent.toLocaleString()} of the ${list.said.toLocaleString()} policies its total said`;
      deps.logger.warn('replica', `the capacity list ${how} (read ${shifted} of ${LIST_READS}); nothing of it was written`);
      if (shifted >= LIST_READS) throw new AppFailure({ kind: 'server', message: LIST_KEPT_MOVING });
      if (list !== 'shifted') {
        endedAt = list.sent;
        // A streamed first sync's read, rolled back: read again the ordinary way.
        stream = false;
      }
      continue;
    }
    if (list) return list;
    // A streamed first sync that moved, or a refresh whose rows were not held: read again the ordinary way.
    stream = false;
  }
}

/** A read whose pages ended short of the total it said, not written: where they ended. */
class EndedShort {
  constructor(
    readonly said: number,
    readonly sent: number,
  ) {}
}

/** Reads of a list that moved before the refresh gives up (each costs a whole list's requests). */
export const LIST_READS = 3;
/** Said when the service's list would not hold still: the status area's words after a failed sync. */
export const LIST_KEPT_MOVING = `The service's capacity list changed while it was read, ${LIST_READS} times over; the previous offline copy is kept. Try again in a moment.`;

/**
 * The capacity list fetched and written in one commit ('shifted' when it moved in a way that can leave a policy out:
 * nothing written). A purchase or a cancel
 * written through while its pages are read is newer than the page that holds
 * it: the write keeps those rows as written (a first sync's too, which had no
 * list to write them into). A first sync of a list long enough for the rewrite
 * thread is written as its pages come (streamFirstSync), so the write overlaps
 * the fetch; a failed or cancelled one is rolled back and the copy stays empty.
 */
async function refreshList(
  replica: Replica,
  deps: ReplicaSyncDeps,
  signal: AbortSignal,
  progress: (p: SyncProgress) => void,
  options: { readonly stream: boolean; readonly endedAt: number | null },
) {
  const writeThroughs = replica.watchWriteThroughs();
  let stream: StreamedFirstSync | null = null;
  /** A streamed list's commit, once begun: it stops watching the write-throughs when it has read them. */
  let committed: Promise<void> | null = null;
  try {
    stream = options.stream ? await streamIfFirstSync(replica, deps.session, signal) : null;
    const to = stream;
    // Over a copy that holds a list, each page is compared with it as it comes and only what differs is held: read and
    // compared on the list-page thread, so the main thread never parses or checks a page.
    const storedNow = options.stream && !to ? await storedHashes(replica) : null;
    const listed = storedNow ? new ListedAgainstStored(storedNow) : null;
    const onProgress = ({ fetched, total }: BulkProgress) => progress({ phase: 'capacities', fetched, total });
    const compared =
      storedNow && listed
        ? await withListPageThread(storedNow, (thread) =>
            syncComparedCapacities(deps.session, thread, { signal, concurrency: CONCURRENCY, onProgress, streamTo: async () => (rows) => Promise.resolve(listed.addCompared(rows)) }),
          )
        : null;
    // A first sync's pages are read on the list-page thread too, against no stored row (each comes back with its row):
    // at 1,000,000 policies a page's text, JSON.parse, drift check and zod read on the main thread were its longest
    // stalls after the garbage collector's (the stall tracer of bench/refresh-stall, branch curve16), and their
    // garbage was the collector's. The main thread takes each row once, as the thread's message brings it.
    const streamedRead =
      to && !compared
        ? await withListPageThread(new Map(), (thread) =>
            syncComparedCapacities(deps.session, thread, { signal, concurrency: CONCURRENCY, onProgress, newestFirst: true, streamTo: async () => (rows) => to.add(rowsOf(rows)) }),
          )
        : null;
    const plain = compared || streamedRead ? null : await syncCapacities(deps.session, { signal, concurrency: CONCURRENCY, onProgress });
    const synced: SyncedCapacities<unknown> = compared ?? streamedRead ?? (plain as SyncedCapacities);
    // Stored newest first: the first rows are then the default first screen of the list (none when streamed).
    const capacities = plain ? plain.rows.reverse() : [];
    if (synced.leftOut.length > 0) deps.logger.warn('replica', `${synced.leftOut.length} items of the capacity list had no id and were not kept`);
    const miscount = synced.miscount ? miscountSentence(synced.miscount.said, synced.miscount.sent) : null;
    if (miscount) deps.logger.warn('replica', miscount);
    const fetchedAt = new Date();
    // The last moment a cancel is heard: once the write has begun, it commits whole or not at all.
    if (signal.aborted) throw new AppFailure({ kind: 'cancelled', message: 'Cancelled.' });
    const streamed = stream as StreamedFirstSync | null;
    // Pages that ended short of a total that held still (no id twice, no total lower): a page cut short in
    // transit, or a total that is wrong. Written as sent, the copy would lose every policy past that page and be
    // stamped fresh: believed only when a second read ends at the same place (the total is then what is wrong).
    const endedShort = !synced.moved && synced.miscount && synced.miscount.sent < synced.miscount.said ? synced.miscount : null;
    if (endedShort && endedShort.sent !== options.endedAt) {
      await streamed?.abandon();
      return new EndedShort(endedShort.said, endedShort.sent);
    }
    if (streamed) {
      if (synced.moved || synced.miscount !== null) {
        deps.logger.warn('replica', 'the capacity list moved while its first sync read it; reading it again the ordinary way');
        await streamed.abandon();
        return null;
      }
      // What the pages held, as the held list's length says it (the policies written through come on top).
      const kept = streamed.count;
      // Not awaited here: the caller fetches the details while the thread commits, and waits for it before it ends.
      // A failed commit has rolled back already (the stream's own finish).
      const commit = streamed.finish(fetchedAt, synced.leftOut, writeThroughs.policies).then(
        () => writeThroughs.stop(),
        (error: unknown) => {
          writeThroughs.stop();
          throw error;
        },
      );
      // Handled from now on: its failure is the refresh's (whileCommitting awaits it), never an unhandled rejection
      // while the details are still being read.
      commit.catch(() => undefined);
      committed = commit;
      return { synced, kept, newest: streamed.newest(RECENT_DETAILS), miscount, fetchedAt, committed: commit };
    }
    // Over a copy, or read the ordinary way: the first sync's streamed read has its own check above.
    if (synced.shifted) return 'shifted' as const;
    if (listed) {
      const writes = await writeCapacityChanges(replica, listed, fetchedAt, synced.leftOut, writeThroughs.policies);
      // Not written from the rows held: the whole list is written, held whole when every row was, else read again.
      const whole = writes ? null : listed.rowsNewestFirst();
      if (!writes && !whole) return null;
      if (whole) await writeCapacities(replica, whole, fetchedAt, synced.leftOut, writeThroughs.policies);
      return { synced, kept: listed.size, newest: await newestListed(listed), miscount, fetchedAt, committed: Promise.resolve() };
    }
    await writeCapacities(replica, capacities, fetchedAt, synced.leftOut, writeThroughs.policies);
    return { synced, kept: capacities.length, newest: capacities.slice(0, RECENT_DETAILS).map((p) => p.cidrId), miscount, fetchedAt, committed: Promise.resolve() };
  } catch (error) {
    await (stream as StreamedFirstSync | null)?.abandon();
    throw error;
  } finally {
    if (!committed) writeThroughs.stop();
  }
}

/** `work` with a list-page thread holding the copy's hashes; the thread ended after it, whatever its outcome. */
async function withListPageThread<T>(stored: StoredHashes, work: (thread: ListPageThread) => Promise<T>): Promise<T> {
  const thread = await ListPageThread.start(stored);
  try {
    return await work(thread);
  } finally {
    await thread.close();
  }
}

/** The rows of a page compared with no stored row: each comes with its row (a hash alone would be a bug of ours). */
function rowsOf(compared: readonly ComparedRow[]): CapacityRow[] {
  return compared.map(([cidrId, , row]) => {
    if (!row) throw new AppFailure({ kind: 'internal', message: `The capacity list's policy ${cidrId} came without its record. The local copy was left as it was; refresh again.` });
    return row;
  });
}

/** The ids of the newest policies listed, newest first (the pages came oldest first), walked in slices. */
async function newestListed(listed: ListedAgainstStored): Promise<string[]> {
  const last: string[] = [];
  const walk = listed.entries();
  await inSlices(() => {
    const entry = walk.next();
    if (entry.done) return false;
    last.push(entry.value[0]);
    if (last.length > RECENT_DETAILS) last.shift();
    return true;
  });
  return last.reverse();
}

/**
 * `work` done while a list's commit runs; settles once both have (a commit is never left running past the refresh:
 * a close or a wipe waits for the refresh), with the commit's failure if it failed, else the work's outcome.
 */
async function whileCommitting<T>(committed: Promise<void>, work: () => Promise<T>): Promise<T> {
  let done: T;
  try {
    done = await work();
  } finally {
    await committed.catch(() => undefined);
  }
  await committed;
  return done;
}

/**
 * A streamed first sync when the copy has no list yet and the service's says it holds enough policies for the
 * rewrite thread (one request of one policy asks: the pages' order is chosen before the first of them).
 */
async function streamIfFirstSync(replica: Replica, session: ReplicaSyncDeps['session'], signal: AbortSignal): Promise<StreamedFirstSync | null> {
  if ((await capacitiesFetchedAt(replica)) !== null) return null;
  const said = await session.authorized((client, token) => client.read('listCapacities', { token, signal, query: { page: 1, pageSize: 1, sortOrder: 'desc' } }));
  return said.total >= REWRITE_THREAD_FROM_ROWS ? streamFirstSync(replica) : null;
}

async function fetchEach<T>(
  session: ReplicaSyncDeps['session'],
  ids: readonly string[],
  signal: AbortSignal,
  phase: SyncProgress['phase'],
  progress: (p: SyncProgress) => void,
  fetchOne: Parameters<typeof fetchOneWith<T | null>>[1],
): Promise<Record<string, T>> {
  const result = dictionary<T>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      if (signal.aborted) throw new AppFailure({ kind: 'cancelled', message: 'Cancelled.' });
      try {
        const value = await fetchOneWith(session, fetchOne, id, signal);
        if (value !== null) result[id] = value;
      } catch (error) {
        if (!(error instanceof AppFailure && error.error.kind === 'not-found')) throw error;
      }
      done += 1;
      progress({ phase, fetched: done, total: ids.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return result;
}

type FetchOne<T> = (
  client: Parameters<Parameters<SessionService['authorized']>[0]>[0],
  token: string,
  id: string,
  signal: AbortSignal,
) => Promise<T>;

function fetchOneWith<T>(session: ReplicaSyncDeps['session'], fetchOne: FetchOne<T>, id: string, signal: AbortSignal): Promise<T> {
  return session.authorized((client, token) => fetchOne(client, token, id, signal));
}

function stampAll<T>(values: Record<string, T>, at: Date): Record<string, { fetchedAt: string; value: T }> {
  const fetchedAt = at.toISOString();
  return dictionary(Object.entries(values).map(([id, value]) => [id, { fetchedAt, value }] as const));
}

/** Said when the service's `total` and what its pages sent disagree: the copy holds what was sent. */
function miscountSentence(said: number, sent: number): string {
  return `The service said it holds ${countOf(said, 'capacity policy', 'capacity policies')} but its pages held ${sent.toLocaleString()}; the local copy holds what it sent.`;
}

function doneMessage(miscount: string | null, capacitiesLeftOut: number, cyberLeftOut: number): { message?: string } {
  const leftOut = leftOutMessage(capacitiesLeftOut, cyberLeftOut).message;
  const message = [miscount, leftOut].filter((part) => part).join(' ');
  return message ? { message } : {};
}

/** Said in the status area after a refresh that could not keep every item of the list. */
function leftOutMessage(capacities: number, cyber: number): { message?: string } {
  const parts = [
    capacities > 0 ? `${countOf(capacities, 'item', 'items')} of the capacity list had no policy id` : null,
    cyber > 0 ? `${countOf(cyber, 'disaster-recovery policy', 'disaster-recovery policies')} did not read in full` : null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? {} : { message: `${parts.join('; ')}: not kept in the local copy.` };
}
