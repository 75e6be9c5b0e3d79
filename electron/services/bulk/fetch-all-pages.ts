import { setMaxListeners } from 'node:events';
import { AppFailure } from '../../../shared/ipc/result.js';
import { cancelledError } from '../api-client/errors.js';
import { inSlices, yieldWhenDue } from '../replica/time-slices.js';
import { IdMap } from './id-map.js';

export interface PageAnswer<T> {
  readonly data: readonly T[];
  readonly total: number;
  /** Items of the page that could not be read (no id): they still made the page full. */
  readonly skipped?: readonly unknown[];
}

export interface BulkProgress {
  readonly fetched: number;
  readonly total: number;
}

/** What the service said its list holds, and what its pages held. */
export interface ListCount {
  /** The `total` of the first page. */
  readonly said: number;
  /** Items kept: each id once, up to where the pages ended. */
  readonly kept: number;
  /**
   * The list moved while its pages were read: a page's `total` differed from the first's, or an id came on two
   * pages. Offset paging then shifted under the reader, so a policy may be on no page it read (one created
   * meanwhile at the end the pages start from pushes the rest a place on).
   */
  readonly moved: boolean;
  /** An id came on two pages (a page repeated, or the rows pushed a place on): part of `moved`. */
  readonly repeated: boolean;
  /** A page's `total` was lower than the first's (a delete pulled the later pages back): part of `moved`. */
  readonly shrank: boolean;
}

export interface FetchAllOptions<T> {
  /** Fetches one page (1-based). */
  readonly fetchPage: (page: number, pageSize: number, signal: AbortSignal) => Promise<PageAnswer<T>>;
  readonly pageSize: number;
  /** An item's id: an id already seen is not kept again, and a page with no new id ends the list. */
  readonly idOf: (item: T) => string;
  /** Told at the end what the service said and what its pages held (they differ when its `total` was wrong). */
  readonly onCount?: (count: ListCount) => void;
  /** Requests in flight at once; the service is shared, so keep it small. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BulkProgress) => void;
  /**
   * Asked once the first page is in, with the `total` it said: a sink that takes the pages as they come
   * (in page order, each once every page before it is in and the list is known to go on to it), or null to
   * have them put together and returned. A stream's pages are not held: the list returned is then empty,
   * and an id that comes twice reaches the sink twice (the later copy is the one to keep).
   */
  readonly streamTo?: (said: number) => Promise<PageSink<T> | null>;
}

/** Takes a list's pages in page order; the fetch waits for it (a sink that falls behind holds the requests back). */
export type PageSink<T> = (items: readonly T[]) => Promise<void>;

/**
 * Fetches every page of a list, with bounded concurrency, put back in page
 * order. The first page's `total` is only an upper bound, never believed on its
 * own: the list ends at the first empty or short page, or at a page that brings
 * no id not already seen, so the work is bounded by what the pages hold (a
 * service claiming 57 million policies and sending a few costs a few pages).
 * Cancelling the signal stops new requests and aborts those in flight.
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
    const said = Math.max(0, first.total);
    const pageCount = Math.max(1, Math.ceil(said / options.pageSize));
    /** Each page as it came, duplicates included (oneCopyEachByLaterPage picks among them once all are in). */
    const pages: Array<readonly T[]> = [];
    /**
     * Each id kept, with the first page it came on (pages come in any order); once handed to a sink, the negative of
     * that page. One map of numbers for the whole list (IdMap): at 1,000,000, a set of the ids seen beside a set
     * of those handed held each id's text twice over, and the garbage collector walked both at every major pause.
     */
    const seen = new IdMap<number>();
    // An id seen twice anywhere: only then is the whole list walked for the later page's copy.
    let duplicates = false;
    let totalMoved = false;
    let shrank = false;
    // The last page worth keeping, lowered as pages show where the list really ends.
    let lastPage = pageCount;
    let fetched = 0;
    const keep = (page: number, answer: PageAnswer<T>): void => {
      const fresh = answer.data.filter((item) => {
        const id = options.idOf(item);
        const at = seen.get(id);
        if (at === undefined) {
          seen.set(id, page);
          return true;
        }
        // An earlier page that came later: the id is the earlier page's to hand on (pages are handed in order).
        if (page < at) seen.set(id, page);
        return false;
      });
      pages[page - 1] = answer.data;
      if (fresh.length < answer.data.length) duplicates = true;
      if (answer.total !== first.total) totalMoved = true;
      if (answer.total < first.total) shrank = true;
      const held = answer.data.length + (answer.skipped?.length ?? 0);
      if (held === 0 || (answer.data.length > 0 && fresh.length === 0)) lastPage = Math.min(lastPage, page - 1);
      else if (held < options.pageSize) lastPage = Math.min(lastPage, page);
      fetched += fresh.length;
      // Never "2,063 of 57,540,317": once the pages have ended, the count is what they held.
      options.onProgress?.({ fetched, total: lastPage < pageCount ? fetched : Math.max(said, fetched) });
    };
    keep(1, first);
    const sink = (await options.streamTo?.(said)) ?? null;
    // With a sink, each page is handed on once the pages before it are in; one hand-off at a time, in order.
    let handed = 0;
    let handing: Promise<void> = Promise.resolve();
    // Pages that came while the sink was busy are handed one after another, each sink call resolving at once
    // when the thread has room: without a turn of the event loop between them, a first sync of 1,000,000 held
    // the main process 1.4 s in one piece (the stall tracer of bench/refresh-stall).
    const due = yieldWhenDue();
    const handOn = (): Promise<void> => {
      if (!sink) return Promise.resolve();
      handing = handing.then(async () => {
        while (handed < lastPage && pages[handed] !== undefined) {
          const items = pages[handed] as readonly T[];
          pages[handed] = [];
          handed += 1;
          throwIfCancelled(controller.signal);
          // Each id counted on the first page it came on (every page before this one is in: its page is known).
          for (const item of items) {
            const id = options.idOf(item);
            if (seen.get(id) !== handed) continue;
            seen.set(id, -handed);
            streamed += 1;
          }
          await sink(items);
          await due();
        }
      });
      return handing;
    };
    /** The ids handed on, each once: what the list holds. */
    let streamed = 0;
    await handOn();

    let next = 2;
    const worker = async (): Promise<void> => {
      while (next <= lastPage) {
        const page = next++;
        throwIfCancelled(controller.signal);
        const answer = await options.fetchPage(page, options.pageSize, controller.signal);
        if (page <= lastPage) keep(page, answer);
        await handOn();
      }
    };
    const workers = Array.from({ length: Math.min(concurrency, Math.max(0, lastPage - 1)) }, worker);
    try {
      await Promise.all(workers);
    } catch (error) {
      controller.abort();
      throw error;
    }
    // Pages past the end (fetched in parallel before the end was known) are not kept. Put together in
    // slices: at 100,000 items the flatten and the walk for duplicates were one piece of 100-300 ms.
    if (sink) {
      await handOn();
      options.onCount?.({ said, kept: streamed, moved: duplicates || totalMoved, repeated: duplicates, shrank });
      return [];
    }
    const kept = pages.slice(0, Math.max(1, lastPage));
    const items = duplicates ? await oneCopyEachByLaterPage(kept, options.idOf) : await flattened(kept);
    // A cancel heard while the slices gave way (a sign-out, a close, Cancel) ends the fetch: the list is not written.
    throwIfCancelled(controller.signal);
    options.onCount?.({ said, kept: items.length, moved: duplicates || totalMoved, repeated: duplicates, shrank });
    return items;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Each id once, in page order. An id comes twice when the service's offset
 * paging shifted while the pages were read: the copy on the later page is
 * kept, at its place there, since the pages are asked for in order and the
 * later one was asked for after the other: it is the newer read (the order
 * pages happen to arrive in says nothing). The copy's refresh keeps the same
 * one by the same reasoning (refresh-diff.ts, oneCopyEach).
 */
async function oneCopyEachByLaterPage<T>(pages: ReadonlyArray<readonly T[] | undefined>, idOf: (item: T) => string): Promise<T[]> {
  const items = await flattened(pages);
  const lastAt = new Map<string, number>();
  let at = 0;
  await inSlices(() => {
    if (at >= items.length) return false;
    lastAt.set(idOf(items[at] as T), at);
    at += 1;
    return true;
  });
  const kept: T[] = [];
  at = 0;
  await inSlices(() => {
    if (at >= items.length) return false;
    const item = items[at] as T;
    if (lastAt.get(idOf(item)) === at) kept.push(item);
    at += 1;
    return true;
  });
  return kept;
}

/** The pages' items in page order, a page at a time in slices that yield. */
async function flattened<T>(pages: ReadonlyArray<readonly T[] | undefined>): Promise<T[]> {
  const items: T[] = [];
  let next = 0;
  await inSlices(() => {
    if (next >= pages.length) return false;
    for (const item of pages[next] ?? []) items.push(item);
    next += 1;
    return true;
  });
  return items;
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new AppFailure(cancelledError());
}
