import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'vitest';
import type { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';

/**
 * Reads the copy between the slices of a refresh under way until it ends: each read must see the old list whole
 * (its count, its text index by the old tag and not the new one, its time). Returns how many reads ran meanwhile.
 */
export async function readsWhileRefreshing(
  db: CapacityReplicaDb,
  old: { readonly count: number; readonly tag: string; readonly fetchedAt: string },
  newTag: string,
): Promise<number> {
  const textTotal = (text: string) => db.query({ status: undefined, text, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 1 }).total;
  let reads = 0;
  while (db.writing) {
    expect(db.count).toBe(old.count);
    expect(textTotal(old.tag)).toBe(old.count);
    expect(textTotal(newTag)).toBe(0);
    expect(db.fetchedAt).toBe(old.fetchedAt);
    reads += 1;
    await nextTurn();
  }
  return reads;
}
