import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import { IdMap } from '../bulk/id-map.js';
import type { RewriteRow, RewriteThread } from './rewrite-thread.js';
import { inSlices } from './time-slices.js';

/**
 * The row id of the first row a streamed first sync writes; each later one takes the next id. Its pages come
 * newest first, as the list is stored (the lowest row id first), so rows are appended in row id order: rows
 * written in falling order filled SQLite's pages half (twice the pages: measured 11,060 against 5,661 for
 * 20,000 rows). The ids below are kept for the policies written through meanwhile that the pages did not
 * hold, which lead the list; write-throughs after it take ids above (SQLite's next id is the largest plus one).
 */
export const STREAM_FIRST_RID = 1_000_000;

/** Rows handed to the rewrite thread per message (the thread holds at most a few messages: RewriteThread). */
const CHUNK_ROWS = 250;

/** The newest ids kept for `newest` (the sync reads the details of the newest 50): not every id in order. */
export const NEWEST_HELD = 1_000;

/** What a streamed first sync needs of the copy it writes: the thread's transaction and how a row is laid out. */
export interface FirstSyncStreamParts {
  readonly thread: RewriteThread;
  /** A policy as the thread inserts it, at the row id given (its hash is the thread's). */
  readonly rowOf: (policy: CapacityRow, rid: number, again: boolean) => RewriteRow;
  /** Ends the rewrite: the meta, the COMMIT (the thread's), what follows a full refresh's commit. */
  readonly commit: (fetchedAt: string, leftOut: readonly SkippedItem[]) => Promise<void>;
  /** Rolls the rewrite back and waits for the thread to end. */
  readonly abandon: () => Promise<void>;
}

/**
 * A first sync (a copy with no list yet) written while its pages are fetched, newest first: the rewrite thread's one
 * transaction begins at the first page, each page's rows are handed to it in page order as they come (the
 * fetch waits while the thread has enough queued), and it commits after the last page, or rolls back and the
 * copy stays as it was. The main thread never holds the whole list: only each id's row id, so a policy that
 * comes twice (the service's offset paging shifted) is kept once, the later page's copy at its place, and a
 * policy written through meanwhile replaces its page's copy at the end.
 */
export class FirstSyncStream {
  readonly #parts: FirstSyncStreamParts;
  /**
   * Each id handed, with the row id of its copy that stands: numbers under their prefix (IdMap), so that at
   * 1,000,000 no id's text is held through the stream for the garbage collector to walk.
   */
  readonly #rids = new IdMap<number>();
  /** The first NEWEST_HELD ids handed, each once, in the order handed: the newest policies. */
  readonly #newest: string[] = [];
  readonly #newestTaken = new Set<string>();
  #chunk: RewriteRow[] = [];
  #handed = 0;

  constructor(parts: FirstSyncStreamParts) {
    this.#parts = parts;
  }

  /** Policies kept so far, each id once. */
  get count(): number {
    return this.#rids.size;
  }

  /** The ids of the `n` newest policies handed (the first handed first), each once; at most NEWEST_HELD. */
  newest(n: number): string[] {
    return this.#newest.slice(0, n);
  }

  /** The next page's rows, in page order: prepared in slices and handed over in chunks. */
  async add(page: readonly CapacityRow[]): Promise<void> {
    let next = 0;
    while (next < page.length) {
      await inSlices(() => {
        const policy = page[next++];
        if (policy) {
          if (this.#newest.length < NEWEST_HELD && !this.#newestTaken.has(policy.cidrId)) {
            this.#newest.push(policy.cidrId);
            this.#newestTaken.add(policy.cidrId);
          }
          this.#put(policy, STREAM_FIRST_RID + this.#handed++);
        }
        return next < page.length && this.#chunk.length < CHUNK_ROWS;
      });
      if (this.#chunk.length >= CHUNK_ROWS) await this.#handOver();
    }
  }

  /**
   * Commits the list: the policies written through since the sync began replace their page's copy at its place,
   * those the pages did not hold lead the list (bought after its last page: the newest), then the meta (when
   * the list was fetched, the items left out) and the COMMIT. Resolves once committed; the number of rows written.
   */
  async finish(fetchedAt: string, leftOut: readonly SkippedItem[], writtenThrough: ReadonlyMap<string, CapacityRow>): Promise<number> {
    const added = [...writtenThrough.values()].filter((policy) => !this.#rids.has(policy.cidrId));
    const below = STREAM_FIRST_RID - added.length;
    for (const policy of writtenThrough.values()) {
      const rid = this.#rids.get(policy.cidrId);
      if (rid !== undefined) this.#put(policy, rid);
    }
    added.forEach((policy, i) => this.#put(policy, below + i));
    await this.#handOver();
    await this.#parts.commit(fetchedAt, leftOut);
    return this.#rids.size;
  }

  /** Rolls the rewrite back (the copy stays as it was) and waits for the thread to end. */
  abandon(): Promise<void> {
    return this.#parts.abandon();
  }

  #put(policy: CapacityRow, rid: number): void {
    const again = this.#rids.has(policy.cidrId);
    this.#rids.set(policy.cidrId, rid);
    this.#chunk.push(this.#parts.rowOf(policy, rid, again));
  }

  async #handOver(): Promise<void> {
    if (this.#chunk.length === 0) return;
    const chunk = this.#chunk;
    this.#chunk = [];
    await this.#parts.thread.add(chunk);
  }
}
