import type { UpdateState } from '../../shared/ipc/desktop.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';

/**
 * Where auto-update stands, for the top bar and Preferences alike: read once,
 * then followed by the main process's events; a check or an install answers
 * with the new state. App-wide: no session reset.
 */
class UpdatesStore {
  state = $state<UpdateState | null>(null);
  busy = $state(false);
  error = $state<AppError | null>(null);

  /** Reads the state and follows it; returns the function that stops following. */
  follow(): () => void {
    void api.updates.status().then((result) => {
      if (result.ok) this.state = result.value;
    });
    return api.on('updates.changed', (next) => {
      this.state = next;
    });
  }

  check(): Promise<void> {
    return this.#run(() => api.updates.check(), { phase: 'checking' });
  }

  install(): Promise<void> {
    return this.#run(() => api.updates.install());
  }

  async #run(action: () => Promise<Result<UpdateState>>, meanwhile?: UpdateState): Promise<void> {
    this.busy = true;
    this.error = null;
    if (meanwhile) this.state = meanwhile;
    try {
      const result = await action();
      if (result.ok) this.state = result.value;
      else this.error = result.error;
    } finally {
      this.busy = false;
    }
  }
}

export const updates = new UpdatesStore();
