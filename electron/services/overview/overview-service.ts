import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import type { OverviewSummary } from '../../../shared/ipc/overview.js';
import { fetchAllPages } from '../bulk/fetch-all-pages.js';
import type { SessionService } from '../session/session-service.js';
import { inSlices } from '../replica/time-slices.js';
import { CapacitySummary } from './summarize.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

export interface OverviewDeps {
  readonly session: Pick<SessionService, 'status' | 'authorized'>;
  readonly now?: () => Date;
  /** The service's largest page: fewest requests for the whole list. */
  readonly pageSize?: number;
  /** Pages in flight at once; the service is shared, so keep it small. */
  readonly concurrency?: number;
}

/**
 * The overview is computed here, next to the data: every capacity page is
 * fetched in the main process and only the figures cross to the renderer, so
 * a user with 100,000 policies costs the renderer a few kilobytes.
 */
export class OverviewService {
  readonly #deps: OverviewDeps;
  /**
   * One computation per signed-in user at a time; a second caller shares it, unless the app changed a policy on
   * the service since it began (changed()): its pages may have been read before that change.
   */
  #running: { key: string; promise: Promise<OverviewSummary> } | null = null;

  constructor(deps: OverviewDeps) {
    this.#deps = deps;
  }

  summary(): Promise<OverviewSummary> {
    const status = this.#deps.session.status();
    const key = tupleKey(status.profileId, status.username ?? '');
    if (this.#running?.key === key) return this.#running.promise;
    const promise = this.#compute().finally(() => {
      if (this.#running?.promise === promise) this.#running = null;
    });
    this.#running = { key, promise };
    return promise;
  }

  /**
   * The app changed a policy on the service (a purchase, configuration, renewal setting or cancel answered): a
   * computation under way still answers those who asked for it, but a caller from now on, the one who made the
   * change among them, gets a count read after it (a shared count's pages could predate the caller's own cancel,
   * suspected by review11 and shown by test/integration/live-overview-after-write.test.ts; the count in time
   * slices, curve11, had made that window longer).
   */
  changed(): void {
    this.#running = null;
  }

  async #compute(): Promise<OverviewSummary> {
    const { session } = this.#deps;
    const skipped: SkippedItem[] = [];
    const policies = await fetchAllPages<CapacityRow>({
      pageSize: this.#deps.pageSize ?? 100,
      concurrency: this.#deps.concurrency ?? 4,
      idOf: (row) => row.cidrId,
      fetchPage: async (page, pageSize, signal) => {
        const answer = await session.authorized((client, token) =>
          // Oldest first: a policy created while the pages are read lands at the end, not in the middle.
          client.read('listCapacities', { token, signal, query: { page, pageSize, sortOrder: 'asc' } }),
        );
        // Positions across the whole list, so the details name each item once.
        for (const item of answer.skipped) skipped.push({ ...item, index: (page - 1) * pageSize + item.index });
        return answer;
      },
    });
    // Counted in time slices: in one piece it held the main process ~1.5 s at 100,000 under load (a first sync's
    // overview, the copy not there yet) and seconds at 1,000,000 (the 1M curve).
    const summary = new CapacitySummary((this.#deps.now ?? (() => new Date()))());
    let next = 0;
    await inSlices(() => {
      const policy = policies[next++];
      if (policy) summary.add(policy);
      return next < policies.length;
    });
    return summary.result(skipped);
  }
}
