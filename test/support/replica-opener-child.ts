import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';

/** Opens the replica and waits to be killed: the index-build test kills it while the thread builds (idx15). */
const [file, keyHex] = process.argv.slice(2) as [string, string];
const db = CapacityReplicaDb.open(file, Buffer.from(keyHex, 'hex'));
process.stdout.write('ready\n');
void db.indexesBuilt.then(() => process.stdout.write('built\n'));
setInterval(() => undefined, 1_000);
