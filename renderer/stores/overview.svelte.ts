import type { AppError, Result } from '../../shared/ipc/result.js';
import type { SourcedOverview } from '../../shared/ipc/sourced.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { sessionScope } from '../lib/session-scope.js';

/**
 * The overview's figures, computed by the main process from every capacity
 * policy of the local copy (or of the service before the first sync). Kept
 * between visits so coming back shows the last figures at once while fresh
 * ones are fetched; another user's figures never show, not even for a moment.
 */
class OverviewStore {
  readonly figures = new Resource<SourcedOverview>();
  /** The figures asked as the window starts (null: no one was signed in): taken by the first load; another user's session drops them. */
  #early: Promise<Result<SourcedOverview> | null> | null = null;

  constructor() {
    sessionScope.register(() => {
      this.#early = null;
      this.figures.reset();
    });
  }

  /**
   * Asks for the figures as soon as the window's first status says who is signed in, before any view is
   * mounted (issue 25): the first screen no longer waits for the views' state, then the mounted view, to ask.
   * Signed out, nothing is asked (the main process's first screen is the one after the sign-in).
   * The connectivity store may not be listening yet when the answer comes: at a launch it says nothing that
   * store does not already assume (an answer from the copy, or a live one while the service is up).
   */
  askEarly(scope: Promise<string | null>): void {
    this.#early = scope.catch(() => null).then((signedIn) => (signedIn === null ? null : api.overview.summary()));
  }

  get summary(): SourcedOverview | null {
    return this.figures.value;
  }

  get loading(): boolean {
    return this.figures.loading;
  }

  get error(): AppError | null {
    return this.figures.error;
  }

  /** The copy changed: figures shown (or a failure shown) are read again, the old ones staying until then. */
  async readAgain(): Promise<void> {
    if (this.figures.value !== null || this.figures.error !== null) await this.figures.load(() => api.overview.summary());
  }

  async load(): Promise<void> {
    const early = this.#early;
    this.#early = null;
    const ask = () => api.overview.summary();
    await this.figures.load(() => (early ? early.then((answer) => answer ?? ask()) : ask()));
  }
}

export const overview = new OverviewStore();
