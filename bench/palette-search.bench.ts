import { performance } from 'node:perf_hooks';
import { PAGING } from '../shared/api/contract-choices.js';
import { rankPolicies, type PolicyEntry } from '../renderer/lib/palette-search.js';
import { PALETTE_LOOKUP_LIMIT, PALETTE_NEWEST_PAGES } from '../renderer/lib/palette-sizes.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import type { Figure } from './figure.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** What the palette ranks in the page: the newest pages and, after a long session, fifty look-ups' matches. */
const PALETTE_ENTRIES = PALETTE_NEWEST_PAGES * PAGING.maxPageSize + 50 * PALETTE_LOOKUP_LIMIT;
const LIMIT = 8;
/** A frame at 60 Hz: typing must not make the palette lag behind the keys. */
const BUDGET_MS = 16;
const TIERS = ['Web tier', 'Batch analytics', 'Search cluster', 'web-tier', 'Payments API', 'Render farm'];

/**
 * The command palette's matcher, typed key by key: "web tir" (a typo, so the
 * forgiving path runs over every entry), "m5.2xl" (an instance type) and an
 * id. Within its budget at what the palette ranks in the page (the newest
 * pages plus look-ups: the whole local copy is searched by the main process,
 * bench/replica-storage's keystroke figure); printed at 100,000 too, what it
 * would cost if the page ranked the whole copy. The first keystroke also
 * prepares every entry, so it is reported alone.
 */
export default function paletteSearch(): Promise<Figure[]> {
  return Promise.resolve([...rankedAt(PALETTE_ENTRIES, true), ...rankedAt(ROWS, false)]);
}

function rankedAt(count: number, budgeted: boolean): Figure[] {
  const entries: PolicyEntry[] = syntheticPolicies(count).map((policy, i) => ({
    cidrId: policy.cidrId,
    policyName: `${TIERS[i % TIERS.length]} ${policy.cspRegion.availabilityZoneId} ${i}`,
    policyStatus: policy.policyStatus,
    instanceType: policy.policyInstance.instanceType,
    availabilityZone: policy.cspRegion.availabilityZoneId,
  }));
  const keystrokes = (text: string) => Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1));
  const time = (query: string) => {
    const start = performance.now();
    const found = rankPolicies(query, entries, LIMIT);
    const ms = performance.now() - start;
    if (query.length > 3 && found.length === 0) throw new Error(`"${query}" found nothing: the bench would time nothing`);
    return ms;
  };
  const cold = time('w');
  const warm = [...keystrokes('web tir'), ...keystrokes('m5.2xl'), ...keystrokes('sc_1009')].map(time);
  warm.sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)] as number;
  const worst = warm[warm.length - 1] as number;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const at = `${count.toLocaleString('en')} entries${budgeted ? ' (what the palette ranks)' : ' (the whole copy, if the page ranked it)'}`;
  return [
    { name: `first keystroke at ${at}, prepares them`, value: round(cold), unit: 'ms' },
    { name: `per keystroke, median, at ${at}`, value: round(median), unit: 'ms', ...(budgeted ? { budget: `<= ${BUDGET_MS} ms`, withinBudget: median <= BUDGET_MS } : {}) },
    { name: `per keystroke, slowest, at ${at}`, value: round(worst), unit: 'ms', ...(budgeted ? { budget: `<= ${BUDGET_MS * 3} ms`, withinBudget: worst <= BUDGET_MS * 3 } : {}) },
  ];
}
