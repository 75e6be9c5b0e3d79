import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { ListedAgainstStored } from '../../electron/services/replica/listed-against-stored.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/**
 * stall12's refresh over a copy from a list compared page by page as it came (ListedAgainstStored, then
 * CapacityReplicaDb.replaceChanges), at its edges (review12): an id on two pages keeps the later page's copy
 * whichever of the two differed; a write-through after the last page stays as written; a row changed behind the
 * refresh makes it write nothing and stamp nothing; gone and new rows.
 */
let dir = '';
const opened: CapacityReplicaDb[] = [];
const key = randomBytes(32);
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-replace-changes-'));
});
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  await rm(dir, { recursive: true, force: true });
});
const q = { status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 1000 } as const;

async function setup() {
  const db = CapacityReplicaDb.open(join(dir, 'r.db'), key);
  opened.push(db);
  const old = syntheticPolicies(400, 'probe');
  await db.replaceAll([...old].reverse(), '2026-11-22T10:00:00.000Z');
  const hashes = () => new Map(db.storedHashesAfter(0, 100_000).map(([, id, h]) => [id, h] as const));
  const body = (id: string) => db.query(q).rows.find((r) => r.cidrId === id);
  return { db, old, hashes, body };
}

it('an id on two pages, differing on the first and equal to the copy on the later: the later copy stands (nothing held)', async () => {
  const { db, old, hashes, body } = await setup();
  const x = old[10]!;
  const listed = new ListedAgainstStored(hashes());
  listed.add(old.slice(0, 100).map((p) => (p === x ? { ...x, policyName: 'changed early' } : p)));
  listed.add([...old.slice(100), x]);
  const writes = await db.replaceChanges(listed, '2026-11-22T11:00:00.000Z');
  expect(writes).not.toBeNull();
  expect(listed.held).toBe(0);
  expect(body(x.cidrId)?.policyName).toBe(x.policyName);
  expect(db.query(q).total).toBe(400);
});

it('an id on two pages, equal on the first and differing on the later: the later copy is written, the one row held', async () => {
  const { db, old, hashes, body } = await setup();
  const x = old[10]!;
  const listed = new ListedAgainstStored(hashes());
  listed.add(old.slice(0, 100));
  listed.add([...old.slice(100), { ...x, policyName: 'changed late' }]);
  expect(listed.held).toBe(1);
  const writes = await db.replaceChanges(listed, '2026-11-22T11:00:00.000Z');
  expect(writes).toMatchObject({ written: 1, deleted: 0 });
  expect(body(x.cidrId)?.policyName).toBe('changed late');
});

it('a policy written through after the last page, listed as its hash: kept as written, no whole rewrite asked', async () => {
  const { db, old, hashes, body } = await setup();
  const listed = new ListedAgainstStored(hashes());
  listed.add(old);
  const y = { ...old[20]!, policyStatus: 'CANCELED' as const, policyName: 'written through' };
  db.upsert(y);
  const writes = await db.replaceChanges(listed, '2026-11-22T11:00:00.000Z', [], new Map([[y.cidrId, y]]));
  expect(writes).not.toBeNull();
  expect(body(y.cidrId)).toEqual(y);
});

it('a row changed behind the refresh, not written through: nothing written, the copy not stamped fresh', async () => {
  const { db, old, hashes, body } = await setup();
  const listed = new ListedAgainstStored(hashes());
  listed.add(old);
  db.upsert({ ...old[30]!, policyName: 'behind' });
  const writes = await db.replaceChanges(listed, '2026-11-22T11:00:00.000Z');
  expect(writes).toBeNull();
  expect(db.fetchedAt).toBe('2026-11-22T10:00:00.000Z');
  expect(body(old[30]!.cidrId)?.policyName).toBe('behind');
});

it('a policy gone from the list is deleted, a new one written, every other row left', async () => {
  const { db, old, hashes, body } = await setup();
  const listed = new ListedAgainstStored(hashes());
  const fresh = { ...old[0]!, cidrId: 'sc_new_probe', policyName: 'new' };
  listed.add([...old.filter((_, i) => i !== 5), fresh]);
  const writes = await db.replaceChanges(listed, '2026-11-22T11:00:00.000Z');
  expect(writes).toMatchObject({ written: 1, deleted: 1 });
  expect(body(old[5]!.cidrId)).toBeUndefined();
  expect(body('sc_new_probe')?.policyName).toBe('new');
  expect(db.query(q).total).toBe(400);
});
