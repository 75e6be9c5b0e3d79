import type { AppError } from '../../shared/ipc/result.js';
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

  constructor() {
    sessionScope.register(() => this.figures.reset());
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

  async load(): Promise<void> {
    await this.figures.load(() => api.overview.summary());
  }
}

export const overview = new OverviewStore();
