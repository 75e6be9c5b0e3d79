import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import { PAGING } from '../../../shared/api/contract-choices.js';
import type { ApiClient } from '../api-client/api-client.js';
import { fetchAllPages, type BulkProgress, type ListCount, type PageSink } from './fetch-all-pages.js';
import type { ComparedRow } from '../replica/list-page-reading.js';
import type { ListPageThread } from '../replica/list-page-thread.js';

/** The largest page the service gives: the fewest requests for a full list. */
export const SYNC_PAGE_SIZE = PAGING.maxPageSize;
/**
 * Pages in flight at once. Enough to hide a WAN round trip behind the others,
 * and well inside the agent's connections per origin so the user's own clicks
 * still find a free connection during a sync.
 */
export const SYNC_CONCURRENCY = 8;

/** What a sync needs of the session: a way to run calls with its token. */
export interface Authorized {
  authorized<T>(work: (client: ApiClient, token: string) => Promise<T>): Promise<T>;
}

export interface SyncCapacitiesOptions<T = CapacityRow> {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BulkProgress) => void;
  readonly concurrency?: number;
  /**
   * Newest first instead of oldest first: a first sync streamed into an empty copy (replica-sync.ts) takes
   * the pages in the order the copy stores them. A policy created meanwhile is then on a page already read:
   * the next refresh brings it (one written through by this app is kept by the sync itself).
   */
  readonly newestFirst?: boolean;
  /** Where the pages go as they come, when it says so (fetchAllPages' streamTo): `rows` is then empty. */
  readonly streamTo?: (said: number) => Promise<PageSink<T> | null>;
}

export interface SyncedCapacities<T = CapacityRow> {
  /** Oldest first, or newest first when asked (empty when the pages were streamed). */
  readonly rows: T[];
  /** Items of the list that could not be kept (they had no id to keep them by), with why. */
  readonly leftOut: SkippedItem[];
  /** What the service said its list holds, when that differs from what its pages sent (kept and left out). */
  readonly miscount: { readonly said: number; readonly sent: number } | null;
  /** The list moved while its pages were read (ListCount.moved): a policy may be on no page read. */
  readonly moved: boolean;
  /**
   * The list moved in a way that can leave a policy it held on no page read, in the order it was read: an id came
   * twice (a page repeated ends the list there) or a page's total fell (a delete pulls the later pages back); newest
   * first, any move. Oldest first, a list that only grew did not: a policy created meanwhile lands past the end.
   */
  readonly shifted: boolean;
}

/**
 * Every capacity policy of the signed-in user, fetched page by page with
 * bounded concurrency. Oldest first, so a policy created while the pages are
 * read lands on the last page instead of shifting every page after it.
 * Each page goes through the session, so a 401 ends the session as anywhere else.
 * Pages are read as the list view reads them: a policy with a field the app
 * does not know is kept (the field unknown), so one odd policy never fails
 * the whole copy; only an item without an id is left out, and counted.
 */
export async function syncCapacities(session: Authorized, options: SyncCapacitiesOptions = {}): Promise<SyncedCapacities> {
  return syncList<CapacityRow>(session, options, (row) => row.cidrId, (client, token, query, signal) => client.read('listCapacities', { token, signal, query }));
}

/**
 * The same list, each page read and compared with the copy on the list-page thread (replica/list-page-thread.ts):
 * each policy comes as its id and record hash, with its row only where it differs from the copy.
 */
export async function syncComparedCapacities(session: Authorized, thread: ListPageThread, options: SyncCapacitiesOptions<ComparedRow> = {}): Promise<SyncedCapacities<ComparedRow>> {
  return syncList<ComparedRow>(session, options, (row) => row[0], (client, token, query, signal) =>
    client.readWith('listCapacities', { token, signal, query }, (answer) => thread.read(answer)),
  );
}

type ListQuery = { page: number; pageSize: number; sortOrder: 'asc' | 'desc' };

async function syncList<T>(
  session: Authorized,
  options: SyncCapacitiesOptions<T>,
  idOf: (row: T) => string,
  readPage: (client: ApiClient, token: string, query: ListQuery, signal: AbortSignal) => Promise<{ readonly data: T[]; readonly total: number; readonly skipped: SkippedItem[] }>,
): Promise<SyncedCapacities<T>> {
  const leftOut: SkippedItem[] = [];
  let count: ListCount | null = null;
  const rows = await fetchAllPages<T>({
    pageSize: SYNC_PAGE_SIZE,
    idOf,
    onCount: (counted) => {
      count = counted;
    },
    concurrency: options.concurrency ?? SYNC_CONCURRENCY,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.streamTo ? { streamTo: options.streamTo } : {}),
    fetchPage: async (page, pageSize, signal) => {
      const answer = await session.authorized((client, token) => readPage(client, token, { page, pageSize, sortOrder: options.newestFirst ? 'desc' : 'asc' }, signal));
      // Positioned in the whole list as the service sent it, so each can be named once.
      leftOut.push(...answer.skipped.map((item) => ({ ...item, index: (page - 1) * pageSize + item.index })));
      return answer;
    },
  });
  const sent = ((count as ListCount | null)?.kept ?? rows.length) + leftOut.length;
  const said = (count as ListCount | null)?.said ?? sent;
  const counted = count as ListCount | null;
  const moved = counted?.moved ?? false;
  const shifted = options.newestFirst ? moved : (counted?.repeated ?? false) || (counted?.shrank ?? false);
  return { rows, leftOut, miscount: said === sent ? null : { said, sent }, moved, shifted };
}
