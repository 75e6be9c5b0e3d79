import type { AppError, Result } from '../../shared/ipc/result.js';
import { nowIso } from './dates.js';
import { LatestOnly } from './latest-only.js';
import { originOf } from './origin-of.js';

/**
 * One thing a view reads from the main process: the last answer (kept while a
 * newer read is under way, so a view never blanks), whether a read is under
 * way, the last failure, and where the answer came from and how old it is.
 * Only the newest read writes (see LatestOnly).
 */
export class Resource<T> {
  value = $state<T | null>(null);
  loading = $state(false);
  error = $state<AppError | null>(null);
  /** ISO instant the last answer arrived in this window. */
  loadedAt = $state<string | null>(null);

  /** Where the shown answer came from: the local copy or the service, and when the service was read. */
  readonly origin = $derived(originOf(this.value));
  readonly source = $derived(this.origin?.source ?? null);

  #latest = new LatestOnly();

  /**
   * Runs the read; its answer is applied only if no newer read started and no
   * reset happened meanwhile. Returns the result, or null when it was dropped.
   */
  async load(read: () => Promise<Result<T>>): Promise<Result<T> | null> {
    const ticket = this.#latest.begin();
    this.loading = true;
    const result = await read();
    if (!ticket.current()) return null;
    this.loading = false;
    if (result.ok) {
      this.value = result.value;
      this.error = null;
      this.loadedAt = nowIso();
    } else {
      this.error = result.error;
    }
    return result;
  }

  /** Milliseconds since the shown data was fetched from the service, at `now`; null without an origin. */
  ageAt(now: Date): number | null {
    if (!this.origin) return null;
    const fetched = Date.parse(this.origin.fetchedAt);
    return Number.isNaN(fetched) ? null : now.getTime() - fetched;
  }

  /** Forgets the answer and drops any read under way (another user's session began). */
  reset(): void {
    this.#latest.drop();
    this.value = null;
    this.error = null;
    this.loading = false;
    this.loadedAt = null;
  }
}
