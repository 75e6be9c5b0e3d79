import type { WorklistEntry } from '../../../shared/ipc/worklist.js';

/**
 * The account manager's worklist entries (state, note, snoozed until) of the
 * signed-in user, per policy id. They are the person's own data: a re-sync or
 * a rebuilt copy of the service's policies never touches them.
 */
export interface WorklistStates {
  all(): Promise<ReadonlyMap<string, WorklistEntry>>;
  set(cidrId: string, entry: WorklistEntry): Promise<void>;
}

/** Entries held in memory only: tests, and a session whose own data cannot be opened (they are then lost at exit). */
export class MemoryWorklistStates implements WorklistStates {
  readonly #entries = new Map<string, WorklistEntry>();

  async all(): Promise<ReadonlyMap<string, WorklistEntry>> {
    return new Map(this.#entries);
  }

  async set(cidrId: string, entry: WorklistEntry): Promise<void> {
    this.#entries.set(cidrId, entry);
  }
}
