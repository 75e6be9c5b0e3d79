import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { CapacityReplica } from '../../electron/services/replica/capacity-replica.js';
import type { ParsedLocalCapacityQuery } from '../../shared/ipc/offline.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const query: ParsedLocalCapacityQuery = { text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 20 };

/**
 * A whole-list rewrite is committed by the rewrite thread's own connection, at a moment the main thread does not
 * choose; the rewrite gives every row a new row id. Slim rows read from the old list and kept in memory were joined
 * with the new file's records for the reads between that COMMIT and the rewrite's end: another policy's record
 * answered (the newest first answered the oldest; a status filter answered other statuses).
 */
it('a read during a thread rewrite answers the old list or the new one, never a mix', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'replica-swap-'));
  const replica = new CapacityReplica(CapacityReplicaDb.open(join(dir, 'replica.db'), randomBytes(32)));
  try {
    const old = syntheticPolicies(3000, 'old');
    await replica.replaceAll(old, '2026-11-22T10:00:00.000Z');
    replica.load();
    const status = 'ACTIVE' as const;
    const before = replica.query(query);
    // the same policies, every one changed, in the other order (their row ids change)
    const next = syntheticPolicies(3000, 'new').reverse();
    const p = replica.replaceAll(next, '2026-11-22T11:00:00.000Z');
    const seen: string[][] = [];
    const wrongStatus: string[] = [];
    let done = false;
    void p.then(() => (done = true));
    while (!done) {
      seen.push(replica.query(query).rows.map((r) => `${r.cidrId}|${r.policyName}`));
      for (const r of replica.query({ ...query, status }).rows) if (r.policyStatus !== status) wrongStatus.push(`${r.cidrId} is ${r.policyStatus}`);
      await nextTurn();
    }
    // The subject: the rewrite was the thread's (its COMMIT lands while the main thread reads).
    expect((await p).onThread).toBe(true);
    const after = replica.query(query);
    const b = JSON.stringify(before.rows.map((r) => `${r.cidrId}|${r.policyName}`));
    const a = JSON.stringify(after.rows.map((r) => `${r.cidrId}|${r.policyName}`));
    const mixed = seen.filter((s) => JSON.stringify(s) !== b && JSON.stringify(s) !== a);
    // What was seen, when it fails: the first mixed answer and the first row of the wrong status.
    expect(mixed.slice(0, 1)).toEqual([]);
    expect(wrongStatus.slice(0, 2)).toEqual([]);
    expect(seen.length).toBeGreaterThan(1);
  } finally {
    await replica.db.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

/**
 * A copy closed while the rewrite thread writes it (the app quitting, a copy found unreadable whose folder is
 * then removed): the thread's connection must not go on and commit into a file closed under it.
 */
it('a copy closed while the rewrite thread writes it keeps the old list, and the rewrite fails', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'replica-swap-close-'));
  const file = join(dir, 'replica.db');
  const key = randomBytes(32);
  try {
    const db = CapacityReplicaDb.open(file, key);
    await db.replaceAll(syntheticPolicies(3000, 'old'), '2026-11-22T10:00:00.000Z');
    let closing: Promise<void> = Promise.resolve();
    // Closed at the last moment before the thread is told to commit: the close's word reaches it first.
    const refresh = db.replaceAll(syntheticPolicies(3000, 'new').reverse(), '2026-11-22T11:00:00.000Z', [], new Map(), () => {
      closing = db.close();
    });
    await expect(refresh).rejects.toThrow();
    await closing;
    const again = CapacityReplicaDb.open(file, key);
    try {
      expect(again.fetchedAt).toBe('2026-11-22T10:00:00.000Z');
      expect(again.count).toBe(3000);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
