import type { SourcedOverview } from '../../shared/ipc/sourced.js';
import type { AppError } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';

/**
 * The overview's figures, computed by the main process from every capacity
 * policy of the local copy (or of the service before the first sync). Kept between visits so coming back shows the last figures at once
 * while fresh ones are fetched.
 */
class OverviewStore {
  summary = $state<SourcedOverview | null>(null);
  loading = $state(false);
  error = $state<AppError | null>(null);

  #owner = '';
  #sequence = 0;

  async load(owner: string): Promise<void> {
    if (owner !== this.#owner) {
      // Another user's figures must never show, not even for a moment.
      this.summary = null;
      this.error = null;
      this.#owner = owner;
    }
    const sequence = ++this.#sequence;
    this.loading = true;
    const result = await api.overview.summary();
    if (sequence !== this.#sequence) return;
    this.loading = false;
    if (result.ok) {
      this.summary = result.value;
      this.error = null;
    } else {
      this.error = result.error;
    }
  }
}

export const overview = new OverviewStore();
