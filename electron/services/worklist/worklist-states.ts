import { WorklistEntry } from '../../../shared/ipc/worklist.js';
import type { OwnDataService } from '../own-data/own-data-service.js';

/**
 * The account manager's worklist entries (state, note, snoozed until) of the
 * signed-in user, per policy id. They are the person's own data: a re-sync or
 * a rebuilt copy of the service's policies never touches them.
 */
export interface WorklistStates {
  /** Every entry by policy id: the same map, as long as the entries have not changed (what is derived from it can be kept). */
  all(): Promise<ReadonlyMap<string, WorklistEntry>>;
  /**
   * Changes the fields given of one entry (a policy with none starts from "to do", no note, not snoozed);
   * answers it as kept (with when). Changes are applied one after another, each over the one before.
   */
  update(cidrId: string, change: WorklistEntryChange): Promise<WorklistEntry>;
}

/** The fields of an entry a change may give (an absent or undefined one stays as stored). */
export type WorklistEntryChange = { readonly [K in keyof Omit<WorklistEntry, 'updatedAt'>]?: WorklistEntry[K] | undefined };

/** A policy's entry before the account manager has said anything of it. */
const UNTOUCHED: Omit<WorklistEntry, 'updatedAt'> = { state: 'to-do', note: '', snoozedUntil: null };

/** What is kept per policy: the record's own time stamp is the entry's updatedAt. */
const WorklistBody = WorklistEntry.omit({ updatedAt: true });

/** The entries as records of kind `worklist` in the current owner's own data (one per policy id). */
export function worklistStatesIn(ownData: Pick<OwnDataService, 'records'>): WorklistStates {
  const records = () => ownData.records('worklist', WorklistBody);
  // Read, merge and write of one change finish before the next starts: two changes in flight both land.
  let queue: Promise<unknown> = Promise.resolve();
  let kept: { readonly version: string; readonly entries: ReadonlyMap<string, WorklistEntry> } | null = null;
  return {
    async all() {
      const store = await records();
      // Read before the list is asked: a write asked later moves it, so a map read meanwhile is never kept as newer.
      const version = store.version();
      if (kept?.version === version) return kept.entries;
      const list = await store.list();
      const entries = new Map(list.map((record) => [record.id, { ...record.body, updatedAt: record.updatedAt }]));
      kept = { version, entries };
      return entries;
    },
    update(cidrId, change) {
      // Whose data it goes into is settled when the change is asked, not when its turn comes (a user may switch meanwhile).
      const owned = records();
      // Its failure is met (and answered) when its turn comes; until then it is not an unhandled rejection.
      owned.catch(() => undefined);
      const done = queue.then(async () => {
        const store = await owned;
        const stored = (await store.get(cidrId))?.body ?? UNTOUCHED;
        const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
        const kept = await store.put(cidrId, { ...stored, ...given });
        return { ...kept.body, updatedAt: kept.updatedAt };
      });
      queue = done.catch(() => undefined);
      return done;
    },
  };
}
