/**
 * review13: the Renewals' first rows (renew13's firstUpcomingCapacities) read the rows, then their records by row id,
 * in statements each a read transaction of its own; the rewrite thread commits from its own thread, clears the table
 * and numbers the rows from 1 again. A commit between the two reads must not pair a row with another policy's record.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { firstUpcomingCapacities, upcomingCapacities } from '../../electron/services/replica/replica-reads.js';
import { Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import type { UpcomingCapacity } from '../../electron/services/worklist/replica-upcoming.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A replica of ten active policies ending 31 January to 9 February (one a day, in the list's order), and a "rewrite thread". */
async function renumberable() {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-first-upcoming-'));
  dirs.push(dataDir);
  const secrets = new FixedSecretStore();
  const owner = { profileId: 'sandbox', username: 'renumbered@example.com' };
  const replica = await Replica.open({ dataDir, secrets, owner });
  await writeKind(replica, 'capacities', syntheticPolicies(10).map((policy) => ({ ...policy, policyStatus: 'ACTIVE' })));
  const key = Buffer.from((await secrets.get(replicaKeyService(owner.profileId), owner.username))!, 'base64');
  const rewrite = openKeyed(join(replica.dir, 'replica.db'), key, 1024);
  const columns = (rewrite.prepare(`SELECT name FROM pragma_table_info('capacities') WHERE name <> 'rid'`).pluck().all() as string[]).join(', ');
  return {
    replica,
    /** The same list written again in another order, as the rewrite thread does (cleared, then inserted), committed now. */
    renumber: () =>
      rewrite.exec(`BEGIN IMMEDIATE; CREATE TEMP TABLE kept AS SELECT * FROM capacities; CREATE TEMP TABLE kept_bodies AS SELECT * FROM capacity_bodies;
        DELETE FROM capacity_bodies; DELETE FROM capacities;
        INSERT INTO capacities (${columns}) SELECT ${columns} FROM kept ORDER BY rid DESC;
        INSERT INTO capacity_bodies (rid, body) SELECT c.rid, b.body FROM kept_bodies AS b JOIN kept AS k ON k.rid = b.rid JOIN capacities AS c ON c.cidr_id = k.cidr_id;
        DROP TABLE kept; DROP TABLE kept_bodies; COMMIT;`),
    close: async () => {
      rewrite.close();
      await replica.close();
    },
  };
}

const FROM = Date.UTC(2026, 0, 1);
const TO = Date.UTC(2026, 2, 1);

it("pairs each first row with its own policy's record when a rewrite of the list commits between the rows' read and the records'", async () => {
  const { replica, renumber, close } = await renumberable();
  try {
    const taken: UpcomingCapacity[] = [];
    const first = await firstUpcomingCapacities(
      replica,
      FROM,
      TO,
      (rows) => {
        taken.push(...rows.slice(0, 3 - taken.length));
        return taken.length >= 3;
      },
      () => {
        renumber();
        return taken.map((row) => row.rid);
      },
    );
    expect(taken.map((row) => row.cidrId)).toEqual(['sc_100000', 'sc_100001', 'sc_100002']);
    expect(first?.picked.map((policy) => policy.cidrId)).toEqual(taken.map((row) => row.cidrId));
  } finally {
    await close();
  }
});

it("pairs each row of the whole window's read with its own policy's record across such a commit too", async () => {
  const { replica, renumber, close } = await renumberable();
  try {
    let chosen: readonly UpcomingCapacity[] = [];
    const read = await upcomingCapacities(replica, FROM, TO, (upcoming) => {
      chosen = upcoming.slice(0, 3);
      renumber();
      return chosen.map((row) => row.rid);
    });
    expect(chosen).toHaveLength(3);
    expect(read?.picked.map((policy) => policy.cidrId)).toEqual(chosen.map((row) => row.cidrId));
  } finally {
    await close();
  }
});
