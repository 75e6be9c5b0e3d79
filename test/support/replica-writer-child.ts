import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { syntheticPolicies } from './synthetic-policies.js';

/** Writes the replica in a loop until killed: the crash-safety test kills it at random moments. */
const [file, keyHex] = process.argv.slice(2) as [string, string];
const db = CapacityReplicaDb.open(file, Buffer.from(keyHex, 'hex'));
process.stdout.write('ready\n');
for (let generation = 1; ; generation += 1) {
  await db.replaceAll(syntheticPolicies(3_000, `gen${generation}`), new Date().toISOString());
}
