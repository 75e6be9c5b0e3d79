import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { CapacityPolicy } from '../shared/api/capacity.js';
import type { Result } from '../shared/ipc/result.js';
import type { QuoteResult } from '../shared/quote/quote.js';
import { ALEX, startFastApp } from '../test/unit/api-client/sandbox-fixture.js';
import type { Figure } from './figure.js';

const POLICIES = 20;
const RUNS = 7;
const BUDGET_MS = 1000;

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value as T;
}

/**
 * Time to produce a quote of 20 ready policies as the person waits for it:
 * quote.create through the real dispatch (each policy read from the sandbox
 * over HTTP, the quote built, the PDF drawn, the activity recorded). Median
 * of several runs, with the load average beside it (timings swing with load).
 */
export default async function quoteBench(): Promise<Figure[]> {
  const app = await startFastApp();
  try {
    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    const ready = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'READY_FOR_PURCHASE', limit: 100 })).rows.slice(0, POLICIES);
    const request = {
      policyIds: ready.map((policy) => policy.cidrId),
      accountManager: 'Alex Morgan',
      validUntil: '2026-12-31',
      customerUtcOffset: 1,
      paper: 'A4' as const,
    };
    const timed = async (name: string) => {
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const start = performance.now();
        const quote = value<QuoteResult>(await app.call('quote.create', { ...request, customer: { name } }));
        times.push(performance.now() - start);
        bytes = Buffer.from(quote.pdfBase64, 'base64').length;
      }
      const sorted = [...times].sort((a, b) => a - b);
      return { median: Math.round(sorted[Math.floor(sorted.length / 2)] as number), bytes };
    };
    const figures: Figure[] = [];
    // A Latin name (Helvetica), a Polish one (DejaVu embedded), a Chinese one (DejaVu and the OS's CJK font).
    for (const [label, name] of [['', 'Northwind Traders'], [' (Łódź name)', 'Łódź Logistics'], [' (Chinese name)', '北风贸易有限公司']] as const) {
      const { median, bytes } = await timed(name);
      figures.push(
        {
          name: `quote of ${ready.length} policies${label}: PDF + e-mail text, median of ${RUNS} (load ${loadavg()[0]?.toFixed(1)})`,
          value: median,
          unit: 'ms',
          budget: `<= ${BUDGET_MS} ms`,
          withinBudget: median <= BUDGET_MS,
        },
        { name: `quote PDF size${label}`, value: Math.round(bytes / 1024), unit: 'KB' },
      );
    }
    return figures;
  } finally {
    await app.close();
  }
}
