import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Replica } from '../../electron/services/replica/replica.js';
import { capacityWindow } from '../../electron/services/replica/replica-reads.js';
import { writeCapacities } from '../../electron/services/replica/replica-writes.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/**
 * A keystroke's read of the list on a real copy file (issues 25/26, branch keys14): the copy's time, its left-out
 * items and the window's records are read by statements prepared once, not compiled again for every key
 * (better-sqlite3 keeps no statement cache; three compiles a key were a good part of the host's work for it).
 */
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-keystroke-reads-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

it('answers key after key with the same records, compiling no statement once the first key has been read', async () => {
  const replica = await Replica.open({ dataDir: dir, secrets: new FixedSecretStore(), owner: { profileId: 'keys', username: 'alex@example.com' }, verifyDelayMs: 0 });
  try {
    const policies = syntheticPolicies(2_000);
    await writeCapacities(replica, policies, new Date('2026-11-27T10:00:00.000Z'));
    const byId = new Map(policies.map((p) => [p.cidrId, p]));
    const keyed = (text: string) => capacityWindow(replica, { text, status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 34 });
    // The copy's first answer starts loading its index (SQL answers meanwhile); keys are then answered by the index, as in the app.
    for (let tries = 0; (await keyed('s'))?.loading !== false; tries += 1) {
      expect(tries).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const Connection = createRequire(import.meta.url)('better-sqlite3-multiple-ciphers') as typeof Database;
    const prepare = vi.spyOn(Connection.prototype, 'prepare');
    const typed = ['sc', 'sc_', 'sc_1', 'sc_10', 'sc_1', 'sc_', 'm', 'm5'];
    for (const text of typed) {
      const answer = await keyed(text);
      // Still the copy's answer: whole records as written, the copy's time, a window of them.
      expect(answer?.fetchedAt, text).toBe('2026-11-27T10:00:00.000Z');
      expect(answer?.rows.length, text).toBeGreaterThan(0);
      for (const row of answer?.rows ?? []) expect(row).toEqual(byId.get(row.cidrId));
    }
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([]);
  } finally {
    await replica.close();
  }
});
