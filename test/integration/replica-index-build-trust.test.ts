/**
 * Branch idx15: an older copy's upcoming indexes are built after the open on the checkpoint thread. Its writes reach
 * the copy's log outside any write of the main thread; the replica must take them as its own, not as a change behind
 * the app's back (which reopens the copy and reads every page of it before serving it again).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import { REPLICA_FILE } from '../../electron/services/replica/replica-facts.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { readDatabaseKey } from '../../electron/services/secrets/database-key.js';
import type { Owner } from '../../electron/services/platform/owner.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const owner: Owner = { profileId: 'sandbox', username: SANDBOX_USERS[0]!.username };
/** Enough that each index's build takes a while (a few hundred ms at load 5), so checks fall inside it. */
const POLICIES = 30_000;
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A copy written through the replica, its launch and end indexes then put back as an earlier version made them. */
async function earlierCopy(secrets: FixedSecretStore): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-index-build-trust-'));
  dirs.push(dataDir);
  const writer = await Replica.open({ dataDir, secrets, owner });
  await writeKind(writer, 'capacities', syntheticPolicies(POLICIES));
  const file = join(writer.dir, REPLICA_FILE);
  await writer.close();
  const key = await readDatabaseKey(secrets, replicaKeyService(owner.profileId), owner.username);
  if (!(key instanceof Buffer)) throw new Error('the copy has no key');
  const db = openKeyed(file, key, 1024);
  try {
    db.exec('DROP INDEX capacities_launch; DROP INDEX capacities_end; CREATE INDEX capacities_launch ON capacities (launch_ms); CREATE INDEX capacities_end ON capacities (end_ms);');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return dataDir;
}

describe("an older copy's index build after the open", () => {
  it('is taken as a write of the app: checks of the files during and after it never reopen the copy', async () => {
    const secrets = new FixedSecretStore();
    const dataDir = await earlierCopy(secrets);
    const replica = await Replica.open({ dataDir, secrets, owner });
    try {
      // In an object: the read's answer would otherwise be the promise, awaited by `reading` itself.
      const asked = await replica.reading((copy) => ({ built: copy.db.indexesBuilt }));
      if (!asked) throw new Error('no copy open');
      const { built } = asked;
      const epoch = replica.epoch;
      let settled = false;
      let checks = 0;
      void built.then(() => (settled = true));
      // What every read of the app does first: compare the files with what the app last left there.
      while (!settled) {
        await replica.revalidate();
        checks += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await built).toBeNull();
      await replica.verified();
      await replica.revalidate();
      expect(checks).toBeGreaterThan(5);
      expect(replica.epoch).toBe(epoch);
      const definitions = await replica.reading((copy) =>
        copy.db.readWith((connection) => connection.prepare(`SELECT sql FROM sqlite_master WHERE name = 'capacities_launch'`).pluck().get() as string),
      );
      expect(definitions).toContain('launch_ms, rid');
    } finally {
      await replica.close();
    }
  }, 120_000);
});
