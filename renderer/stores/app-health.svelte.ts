import type { DriftReport } from '../../shared/ipc/diagnostics.js';
import type { UnreadableFile } from '../../shared/ipc/unreadable-files.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';

/**
 * What this copy found wrong, for the notices and Help › Contract
 * diagnostics: settings files it could not read at start, and where the
 * service's answers differed from this version's contract. App-wide.
 */
class AppHealth {
  readonly unreadableFiles = new Resource<UnreadableFile[]>();
  readonly contractDrift = new Resource<DriftReport>();
  /** The unreadable-files notice was dismissed (until the next start). */
  filesDismissed = $state(false);

  async loadUnreadableFiles(): Promise<void> {
    await this.unreadableFiles.load(() => api.app.unreadableFiles());
  }

  /** Read afresh each time the diagnostics open: drift is collected while the app runs. */
  async loadContractDrift(): Promise<void> {
    await this.contractDrift.load(() => api.diagnostics.contractDrift());
  }
}

export const appHealth = new AppHealth();
