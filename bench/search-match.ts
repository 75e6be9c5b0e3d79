import { CapacityIndex } from '../test/support/policy-index.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import { loadavg } from 'node:os';

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
const costs: number[] = [];
const load = loadavg()[0]?.toFixed(1);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const word of TYPED) {
    for (let end = 1; end <= word.length; end += 1) {
      const before = process.cpuUsage();
      index.query({ ...base, text: word.slice(0, end) });
      const used = process.cpuUsage(before);
      if (round > 1) costs.push((used.user + used.system) / 1000);
    }
    index.query({ ...base, text: '' });
  }
}
costs.sort((a, b) => a - b);
const at = (q: number) => costs[Math.min(costs.length - 1, Math.floor(q * costs.length))]?.toFixed(2);
console.log(`match at ${SIZE}: CPU a key median ${at(0.5)} ms, p95 ${at(0.95)} ms, mean ${(costs.reduce((a, b) => a + b, 0) / costs.length).toFixed(2)} ms (${costs.length} keys, load ${load}-${loadavg()[0]?.toFixed(1)})`);
