import { writeSync } from 'node:fs';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import { syntheticPolicies } from './synthetic-policies.js';

/**
 * Refreshes a replica over its copy (every fifth row renamed to version N,
 * the rest as they were) and is killed by the crash test in the middle of the
 * write: the last renamed row stops this process (it loops forever, after
 * saying "mid") when the write reads its name, so every renamed row before it
 * is written and none committed. Version 0 is written first when the file is new.
 * Arguments: file, key (hex), N.
 */
const [file, keyHex, n] = process.argv.slice(2) as [string, string, string];
const ROWS = 3_000;
const db = CapacityReplicaDb.open(file, Buffer.from(keyHex, 'hex'));
const base = syntheticPolicies(ROWS, 'base');
const version = (v: number): CapacityRow[] => base.map((p, i) => (i % 5 === 0 ? { ...p, policyName: `v${v} renamed ${i}` } : p));
if (db.count === 0) await db.replaceAll(version(0), new Date().toISOString());
const list = version(Number(n));
const last = list[ROWS - 5] as CapacityRow;
let reads = 0;
// Read once by the comparison (its JSON), then by the write: stop there.
list[ROWS - 5] = Object.defineProperty({ ...last }, 'policyName', {
  enumerable: true,
  get() {
    reads += 1;
    if (reads === 2) {
      writeSync(1, 'mid\n');
      for (;;);
    }
    return last.policyName;
  },
});
await db.replaceAll(list, new Date().toISOString());
writeSync(1, 'committed\n');
