import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { CapacityRow } from '../../../shared/api/readers.js';
import type { CyberListItem } from '../../../shared/api/cyber.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import type { RefreshWrites, StoredDocument } from './capacity-replica-db.js';
import type { Replica } from './replica.js';
import { readCyberList } from './replica-reads.js';
import { ACCOUNTS_ID, type RecordKind, type RecordValue, type ReplicaKind, type ReplicaValue } from './replica-kinds.js';

/**
 * What the app writes to one replica, each through its `writing` door (one
 * writer at a time; a copy found damaged while writing is replaced).
 */

/** Adds or replaces one record (a detail read online, say); the other records of the kind are not rewritten. */
export async function writeRecord<K extends RecordKind>(replica: Replica, kind: K, id: string, value: RecordValue<K>, fetchedAt: Date = new Date()): Promise<void> {
  const body = JSON.stringify(value);
  await replica.writing((open) => open.db.putDocument(kind, { id, fetchedAt: fetchedAt.toISOString(), body }));
}

/**
 * Write-through of a page of a customer's DR list read online: its policies
 * join the ones kept for that customer (a page is not the whole list, so
 * nothing kept is dropped), so the list opened a minute ago is there offline.
 */
export async function addCyberPage(replica: Replica, customerId: string, items: readonly CyberListItem[]): Promise<void> {
  const kept = (await readCyberList(replica, customerId))?.value ?? [];
  const byCidrId = new Map(kept.map((item) => [item.cidrId, item]));
  for (const item of items) byCidrId.set(item.cidrId, item);
  await writeRecord(replica, 'cyberLists', customerId.toUpperCase(), [...byCidrId.values()]);
}

/**
 * Write-through of one policy the service just answered with: one row, into
 * a copy that holds the list (a copy not yet synced stays empty: its age would
 * lie). A refresh under way is told, a first sync included, so its older page
 * does not undo it. The copy is checked against the disk first. Returns
 * whether the row was written now.
 */
export async function upsertCapacity(replica: Replica, policy: CapacityPolicy): Promise<boolean> {
  await replica.revalidate();
  let written = false;
  await replica.writing((open) => {
    // Inside the write: the refresh's own write, queued behind or ahead of it, sees it or follows it.
    replica.wroteThrough(policy);
    if (!open.fetchedAt) return;
    open.upsert(policy);
    written = true;
  }, false);
  return written;
}

/**
 * A full refresh of the capacity list in a single commit, with the items it
 * could not keep (no id), so every view can say what was left out; the
 * policies in `writtenThrough` (since the refresh began) stay as written.
 */
export async function writeCapacities(
  replica: Replica,
  rows: readonly CapacityRow[],
  fetchedAt: Date = new Date(),
  leftOut: readonly SkippedItem[] = [],
  writtenThrough?: ReadonlyMap<string, CapacityRow>,
): Promise<RefreshWrites | null> {
  const at = fetchedAt.toISOString();
  let writes: RefreshWrites | null = null;
  await replica.writing(async (open) => {
    writes = await open.replaceAll(rows, at, leftOut, writtenThrough);
    await replica.freshListWritten(open, rows.length);
  });
  return writes;
}

/** Replaces one kind in a single commit. */
export async function writeKind<K extends ReplicaKind>(replica: Replica, kind: K, value: ReplicaValue<K>, fetchedAt: Date = new Date()): Promise<void> {
  if (kind === 'capacities') {
    await writeCapacities(replica, value as ReplicaValue<'capacities'>, fetchedAt);
    return;
  }
  const at = fetchedAt.toISOString();
  const documents: StoredDocument[] =
    kind === 'accounts'
      ? [{ id: ACCOUNTS_ID, fetchedAt: at, body: JSON.stringify(value) }]
      : Object.entries(value as Record<string, { fetchedAt: string; value: unknown }>).map(([id, entry]) => ({
          id,
          fetchedAt: entry.fetchedAt,
          body: JSON.stringify(entry.value),
        }));
  await replica.writing((open) => open.db.replaceDocuments(kind, documents, at));
}
