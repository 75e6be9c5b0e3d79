import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKind } from '../electron/services/replica/replica-writes.js';
import { Replica } from '../electron/services/replica/replica.js';
import { CONTRACT } from '../shared/ipc/contract.js';
import { checkedOutput } from '../electron/services/ipc/kept-answers.js';
import { FixedSecretStore } from '../test/support/fixed-key-store.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import type { LocalCapacityQuery } from '../shared/ipc/offline.js';
import { BENCH_OWNER as owner, benchCurrentReplica } from './support/bench-current-replica.js';
import { cpuAKey } from './support/cpu-a-key.js';
/**
 * The host's work for a search key at each size of its first answer (issue 25, branch keys18): 100,000 synthetic
 * policies in a copy, the bench's words typed a letter a query (`replica.queryCapacities`, the contract's output check,
 * the answer stringified), CPU time a key at FIRST_ANSWER_SIZES rows (default 17, 22 and 34: the rows in view, with the
 * rows drawn beyond them, and the keystroke's answer today), a warm pass first. `npx tsx bench/first-answer-size.ts`.
 */
const WORDS = ['m5.2xlarge', 'sc_1000', 'morgan', 'use1-az2', 'r6g'];
const dataDir = await mkdtemp(join(tmpdir(), 'cd-limit-'));
const secrets = new FixedSecretStore();
const writer = await Replica.open({ dataDir, secrets, owner });
await writeKind(writer, 'capacities', syntheticPolicies(100_000));
await writer.close();
const replica = benchCurrentReplica(dataDir, secrets);
await replica.queryCapacities({ text: '', limit: 34, offset: 0, sortBy: 'createdDate', sortOrder: 'desc' } satisfies LocalCapacityQuery);
await (await replica.replica())?.warm();
const ask = (text: string, limit: number): LocalCapacityQuery => ({ text, limit, offset: 0, sortBy: 'createdDate', sortOrder: 'desc' });
const out = CONTRACT['capacity.list'].output;
const SIZES = (process.env.FIRST_ANSWER_SIZES ?? '17,22,34').split(',').map(Number);
for (const pass of [0, 1]) for (const limit of SIZES) {
  const key = async (text: string) => {
    const local = await replica.queryCapacities(ask(text, limit));
    const value = { rows: local.rows, offset: local.offset, total: local.total, origin: { source: 'replica', fetchedAt: new Date().toISOString() }, local: true, skipped: [] };
    const checked = checkedOutput(out, value);
    return JSON.stringify({ ok: true, value: checked.success ? checked.data : null }).length;
  };
  await key('');
  if (pass === 1) console.log(`limit ${limit}: ${await cpuAKey(WORDS, 6, 1, key)}`);
  else await cpuAKey(WORDS, 2, 1, key);
}
await replica.close();
await rm(dataDir, { recursive: true, force: true });
