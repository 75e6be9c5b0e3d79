import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomerBookService } from '../electron/services/customers/customer-book.js';
import { CustomerHandlers } from '../electron/services/customers/customer-handlers.js';
import type { OwnRecords } from '../electron/services/own-data/own-data-store.js';
import { writeKind } from '../electron/services/replica/replica-writes.js';
import { Replica } from '../electron/services/replica/replica.js';
import { UNASSIGNED } from '../shared/ipc/customer-key.js';
import type { Customer } from '../shared/ipc/customers.js';
import { FixedSecretStore } from '../test/support/fixed-key-store.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import { BENCH_OWNER as owner, benchCurrentReplica } from './support/bench-current-replica.js';
import { cpuAKey } from './support/cpu-a-key.js';

/**
 * The host's part of a keystroke within "No customer", in process (issue 26, keys10): 2,000 customers of three
 * accounts over NO_CUSTOMER_SIZE synthetic policies (7,000 accounts, so about 14 % of the policies are nobody's), the
 * words of bench/support/customers-page.ts typed a letter a query as the app asks it (the book's filter, then the
 * copy's window of the rows in view and as many again), the CPU time a key (process.cpuUsage) as median, p95 and
 * mean, the load beside. `npx tsx bench/no-customer-keystroke.ts`.
 */
const SIZE = Number(process.env.NO_CUSTOMER_SIZE ?? 100_000);
const ROUNDS = Number(process.env.NO_CUSTOMER_ROUNDS ?? 10);
const CUSTOMERS = 2_000;
const ACCOUNTS = 7_000;
const TYPED = ['m5.2xlarge', 'sc_1000', 'analytics', 'use1-az2', 'r6g'];

const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-no-customer-'));
try {
  const secrets = new FixedSecretStore();
  const writer = await Replica.open({ dataDir, secrets, owner });
  await writeKind(writer, 'capacities', syntheticPolicies(SIZE).map((policy, i) => ({ ...policy, cspAccountName: `acct-${(i * 7919) % ACCOUNTS}` })));
  await writer.close();
  const book: Customer[] = Array.from({ length: CUSTOMERS }, (_, c) => ({
    key: `cu_${String(c).padStart(10, '0')}`,
    name: `Customer ${c}`,
    externalIds: [`CUST-${c}`],
    accounts: Array.from({ length: 3 }, (_, a) => `ACCT-${c * 3 + a}`),
    contact: '',
    notes: '',
    updatedAt: new Date().toISOString(),
  }));
  const records: Pick<OwnRecords<Customer>, 'list'> = { list: async () => book.map((body) => ({ id: body.key, body, updatedAt: body.updatedAt })) };
  const ownData = { records: async () => records as OwnRecords<never>, status: async () => ({ persistent: true }), activityOfPolicies: async () => [] };
  const replica = benchCurrentReplica(dataDir, secrets);
  const handlers = new CustomerHandlers({ book: new CustomerBookService({ ownData }), replica, ownData, recentExternalIds: () => [] });
  const key = async (text: string) => replica.queryCapacities(await handlers.scoped({ customer: UNASSIGNED, text, limit: 34 }));
  await key('');
  await (await replica.replica())?.warm();
  console.log(`no-customer keystroke at ${SIZE}, host work in process: ${await cpuAKey(TYPED, ROUNDS, 1, key)}`);
  await replica.close();
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
