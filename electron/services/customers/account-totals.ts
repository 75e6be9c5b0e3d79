import type { CapacityRow } from '../../../shared/api/readers.js';
import { launchesLater, monthlySavingsOf, monthlyShareOf } from '../overview/summarize.js';

/** What one account's active capacity policies add up to: the overview by customer sums these per customer. */
export interface AccountTotals {
  active: number;
  monthlySpend: number;
  monthlySavings: number;
}

/**
 * Every account's totals in one pass over the policies (slim rows will do: they carry status, window and price).
 * The month's spend and savings are of the running ones only, as on the customer page: an active policy that
 * launches after `asOf` is counted active but neither paid for nor saving yet.
 */
export function totalsByAccount<Row extends CapacityRow>(
  rows: readonly Row[],
  accountOf: (row: Row) => string,
  asOf: Date,
  priceOf: (row: Row) => number | null | undefined = (row) => row.pricing?.ourPrice,
): Map<string, AccountTotals> {
  const nowMs = asOf.getTime();
  const totals = new Map<string, AccountTotals>();
  for (const row of rows) {
    if (row.policyStatus !== 'ACTIVE') continue;
    const key = accountOf(row);
    let entry = totals.get(key);
    if (!entry) {
      entry = { active: 0, monthlySpend: 0, monthlySavings: 0 };
      totals.set(key, entry);
    }
    entry.active += 1;
    if (launchesLater(Date.parse(row.capacityConfiguration?.launchDateTime ?? ''), nowMs)) continue;
    entry.monthlySpend += monthlyShareOf(priceOf(row) ?? 0, row);
    entry.monthlySavings += monthlySavingsOf(row);
  }
  return totals;
}
