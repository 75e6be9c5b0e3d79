import { WorklistEntry } from '../../../shared/ipc/worklist.js';
import type { OwnDataService } from '../own-data/own-data-service.js';

/**
 * The account manager's worklist entries (state, note, snoozed until) of the
 * signed-in user, per policy id. They are the person's own data: a re-sync or
 * a rebuilt copy of the service's policies never touches them.
 */
export interface WorklistStates {
  all(): Promise<ReadonlyMap<string, WorklistEntry>>;
  /** Keeps the entry; answers it as kept (with when). */
  set(cidrId: string, entry: Omit<WorklistEntry, 'updatedAt'>): Promise<WorklistEntry>;
}

/** What is kept per policy: the record's own time stamp is the entry's updatedAt. */
const WorklistBody = WorklistEntry.omit({ updatedAt: true });

/** The entries as records of kind `worklist` in the current owner's own data (one per policy id). */
export function worklistStatesIn(ownData: Pick<OwnDataService, 'records'>): WorklistStates {
  const records = () => ownData.records('worklist', WorklistBody);
  return {
    async all() {
      const list = await (await records()).list();
      return new Map(list.map((record) => [record.id, { ...record.body, updatedAt: record.updatedAt }]));
    },
    async set(cidrId, body) {
      const kept = await (await records()).put(cidrId, body);
      return { ...kept.body, updatedAt: kept.updatedAt };
    },
  };
}
