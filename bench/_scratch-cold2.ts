import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CapacityReplicaDb } from '../electron/services/replica/capacity-replica-db.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import { replicaOverview } from '../electron/services/overview/replica-overview.js';
const rows = Number(process.argv[2] ?? 100000);
const dir = await mkdtemp(join(tmpdir(), 'cd-cold-'));
const key = randomBytes(32);
const file = join(dir, 'r.db');
let db = CapacityReplicaDb.open(file, key);
await db.replaceAll(syntheticPolicies(rows).reverse(), new Date().toISOString());
if (process.env.IDX) db.readWith((c) => c.exec(process.env.IDX!));
db.close();
const asOf = new Date(Date.UTC(2026, 5, 1));
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  db = CapacityReplicaDb.open(file, key);
  const open = performance.now() - t;
  const parts: Record<string, number> = { open };
  db.readWith((c) => {
    const time = (name: string, sql: string, params: object = { from: asOf.getTime(), to: asOf.getTime() + 30 * 86400000 }) => {
      const t0 = performance.now();
      c.prepare(sql).raw().all(params);
      parts[name] = performance.now() - t0;
    };
    time('status', 'SELECT policy_status, count(*) FROM capacities GROUP BY policy_status ORDER BY min(rid)', {});
    time('launch', `SELECT policy_status, CAST((launch_ms - @from) / 86400000 AS INTEGER), count(*) FROM capacities WHERE launch_ms >= @from AND launch_ms < @to AND +policy_status IN ('ACTIVE','READY_FOR_PURCHASE') GROUP BY 1, 2`);
    time('active', `SELECT instance_type, savings, launch_ms, end_ms FROM capacities INDEXED BY capacities_overview_active WHERE policy_status = 'ACTIVE' ORDER BY rid`, {});
    time('cutoff', `SELECT ms FROM (SELECT launch_ms AS ms FROM capacities WHERE launch_ms >= @from AND launch_ms < @to AND +policy_status IN ('ACTIVE','READY_FOR_PURCHASE') UNION ALL SELECT end_ms AS ms FROM capacities WHERE end_ms >= @from AND end_ms < @to AND +policy_status IN ('ACTIVE','READY_FOR_PURCHASE')) ORDER BY ms LIMIT 1 OFFSET 7`);
    time('risk', `SELECT count(*) FROM capacities WHERE end_ms >= @from AND end_ms < @to AND +policy_status = 'ACTIVE' AND auto_renewal <> 1`);
    time('end', `SELECT policy_status, CAST((end_ms - @from) / 86400000 AS INTEGER), count(*) FROM capacities WHERE end_ms >= @from AND end_ms < @to AND +policy_status IN ('ACTIVE','READY_FOR_PURCHASE') GROUP BY 1, 2`);
    if (i === 0) for (const q of ['SELECT policy_status, count(*) FROM capacities GROUP BY policy_status ORDER BY min(rid)', `SELECT policy_status, CAST((launch_ms - 1) / 86400000 AS INTEGER), count(*) FROM capacities WHERE launch_ms >= 1 AND launch_ms < 2 AND +policy_status IN ('ACTIVE','READY_FOR_PURCHASE') GROUP BY 1, 2`, `SELECT instance_type, savings, launch_ms, end_ms FROM capacities INDEXED BY capacities_overview_active WHERE policy_status = 'ACTIVE' ORDER BY rid`]) console.log(c.prepare(`EXPLAIN QUERY PLAN ${q}`).all().map((r: any) => r.detail).join(' | '));
  });
  t = performance.now();
  const o = db.readWith((c) => replicaOverview(c, asOf, db.leftOut));
  parts.whole = performance.now() - t;
  t = performance.now();
  db.readWith((c) => replicaOverview(c, asOf, db.leftOut));
  parts.again = performance.now() - t;
  console.log(JSON.stringify(Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Math.round(v)]))), o.totalPolicies);
  db.close();
}
await rm(dir, { recursive: true, force: true });
