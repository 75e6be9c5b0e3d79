import { setMaxListeners } from 'node:events';
import { AppFailure } from '../../../shared/ipc/result.js';
import { cancelledError } from '../api-client/errors.js';

export interface PageAnswer<T> {
  readonly data: readonly T[];
  readonly total: number;
}

export interface BulkProgress {
  readonly fetched: number;
  readonly total: number;
}

export interface FetchAllOptions<T> {
  /** Fetches one page (1-based). */
  readonly fetchPage: (page: number, pageSize: number, signal: AbortSignal) => Promise<PageAnswer<T>>;
  readonly pageSize: number;
  /** Requests in flight at once; the service is shared, so keep it small. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BulkProgress) => void;
}

/**
 * Fetches every page of a list: the first page tells the total, the rest are
 * fetched with bounded concurrency and put back in page order. Cancelling the
 * signal stops new requests and aborts those in flight.
 */
export async function fetchAllPages<T>(options: FetchAllOptions<T>): Promise<T[]> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const controller = new AbortController();
  // Every request in flight listens on this one signal (and retries wait on it): more than Node's default of 10 is expected.
  setMaxListeners(4 * concurrency + 10, controller.signal);
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    throwIfCancelled(controller.signal);
    const first = await options.fetchPage(1, options.pageSize, controller.signal);
    const pageCount = Math.max(1, Math.ceil(first.total / options.pageSize));
    const pages: Array<readonly T[]> = new Array(pageCount);
    pages[0] = first.data;
    let fetched = first.data.length;
    options.onProgress?.({ fetched, total: first.total });

    let next = 2;
    const worker = async (): Promise<void> => {
      while (next <= pageCount) {
        const page = next++;
        throwIfCancelled(controller.signal);
        const answer = await options.fetchPage(page, options.pageSize, controller.signal);
        pages[page - 1] = answer.data;
        fetched += answer.data.length;
        options.onProgress?.({ fetched, total: first.total });
      }
    };
    const workers = Array.from({ length: Math.min(concurrency, pageCount - 1) }, worker);
    try {
      await Promise.all(workers);
    } catch (error) {
      controller.abort();
      throw error;
    }
    return pages.flat();
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new AppFailure(cancelledError());
}
