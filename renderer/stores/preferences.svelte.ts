import type { AppInfo, Preferences, PreferencesPatch } from '../../shared/ipc/desktop.js';
import type { AppError } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';

/**
 * The app's preferences and the facts of this copy (version, host), as the
 * Preferences dialog shows them. App-wide, not one user's: no session reset.
 */
class PreferencesStore {
  readonly preferences = new Resource<Preferences>();
  readonly info = new Resource<AppInfo>();
  saving = $state(false);
  /** Why the last change was not saved; cleared by the next one. */
  saveError = $state<AppError | null>(null);

  /** Read afresh each time the dialog opens (another window may have changed them). */
  async load(): Promise<void> {
    this.saveError = null;
    await Promise.all([this.preferences.load(() => api.preferences.get()), this.info.load(() => api.app.info())]);
  }

  /** Saves one change at once; the answer is what is now in force. */
  async change(patch: PreferencesPatch): Promise<void> {
    this.saving = true;
    this.saveError = null;
    try {
      const result = await api.preferences.set(patch);
      if (result.ok) this.preferences.value = result.value;
      else this.saveError = result.error;
    } finally {
      this.saving = false;
    }
  }

  /** The first failure to show: a read's, else the last save's. */
  get error(): AppError | null {
    return this.preferences.error ?? this.info.error ?? this.saveError;
  }
}

export const preferences = new PreferencesStore();
