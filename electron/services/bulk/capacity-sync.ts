import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import { PAGING } from '../../../shared/api/contract-choices.js';
import type { ApiClient } from '../api-client/api-client.js';
import { fetchAllPages, type BulkProgress } from './fetch-all-pages.js';

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

export interface SyncCapacitiesOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BulkProgress) => void;
  readonly concurrency?: number;
}

/**
 * Every capacity policy of the signed-in user, fetched page by page with
 * bounded concurrency. Oldest first, so a policy created while the pages are
 * read lands on the last page instead of shifting every page after it.
 * Each page goes through the session, so a 401 ends the session as anywhere else.
 */
export function syncCapacities(session: Authorized, options: SyncCapacitiesOptions = {}): Promise<CapacityPolicy[]> {
  return fetchAllPages<CapacityPolicy>({
    pageSize: SYNC_PAGE_SIZE,
    concurrency: options.concurrency ?? SYNC_CONCURRENCY,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    fetchPage: (page, pageSize, signal) =>
      session.authorized((client, token) => client.call('listCapacities', { token, signal, query: { page, pageSize, sortOrder: 'asc' } })),
  });
}
