import { CapacityIndex } from '../test/support/policy-index.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import { cpuAKey } from './support/cpu-a-key.js';

/**
 * The host's match alone, in process (issue 25, keys9): an index over SEARCH_MATCH_SIZE synthetic policies, the
 * words of bench/keystroke-parts typed a letter a query (the rows in view and as many again, newest first), the
 * CPU time a key (process.cpuUsage) as median and p95. `npx tsx bench/search-match.ts`.
 */
const SIZE = Number(process.env.SEARCH_MATCH_SIZE ?? 100_000);
const TYPED = ['m5.2xlarge', 'sc_1000', 'morgan', 'use1-az2', 'r6g'];
const ROUNDS = Number(process.env.SEARCH_MATCH_ROUNDS ?? 20);

const index = new CapacityIndex(syntheticPolicies(SIZE));
const base = { status: undefined, sortBy: 'createdDate' as const, sortOrder: 'desc' as const, offset: 0, limit: 34 };
index.query({ ...base, text: '' });
console.log(`match at ${SIZE}: ${await cpuAKey(TYPED, ROUNDS, 2, (text) => index.query({ ...base, text }))}`);
