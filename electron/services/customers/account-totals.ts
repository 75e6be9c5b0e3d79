import type { CapacityRow } from '../../../shared/api/readers.js';
import { launchesLater, monthlyShare } from '../overview/summarize.js';

/** What one account's active capacity policies add up to: the overview by customer sums these per customer. */
export interface AccountTotals {
  active: number;
  monthlySpend: number;
  monthlySavings: number;
}

/**
 * Every account's totals, added a run of rows at a time (slim rows will do: they carry status, window and price),
 * so a caller can let the event loop turn between two runs (CapacityReplica.totalsByAccountInSteps: at 100,000
 * rows one pass was one turn of 74-110 ms of the host's main thread after each refresh, bench/keystroke-refresh's
 * tracer). The month's spend and savings are of the running ones only, as on the customer page: an active policy
 * that launches after `asOf` is counted active but neither paid for nor saving yet.
 */
export class AccountTotalsAdder<Row extends CapacityRow> {
  readonly totals = new Map<string, AccountTotals>();
  readonly #accountOf: (row: Row) => string;
  readonly #priceOf: (row: Row) => number | null | undefined;
  readonly #nowMs: number;

  constructor(accountOf: (row: Row) => string, asOf: Date, priceOf: (row: Row) => number | null | undefined = (row) => row.pricing?.ourPrice) {
    this.#accountOf = accountOf;
    this.#priceOf = priceOf;
    this.#nowMs = asOf.getTime();
  }

  /** Adds rows[from] to rows[to - 1]. */
  add(rows: readonly Row[], from = 0, to = rows.length): void {
    for (let i = from; i < to; i += 1) {
      const row = rows[i] as Row;
      if (row.policyStatus !== 'ACTIVE') continue;
      const key = this.#accountOf(row);
      let entry = this.totals.get(key);
      if (!entry) {
        entry = { active: 0, monthlySpend: 0, monthlySavings: 0 };
        this.totals.set(key, entry);
      }
      entry.active += 1;
      // Each instant parsed once (monthlyShareOf parsed both for the spend and again for the savings).
      const launchMs = Date.parse(row.capacityConfiguration?.launchDateTime ?? '');
      if (launchesLater(launchMs, this.#nowMs)) continue;
      const endMs = Date.parse(row.capacityConfiguration?.endDateTime ?? '');
      entry.monthlySpend += monthlyShare(this.#priceOf(row) ?? 0, launchMs, endMs);
      // A policy whose savings the service did not state adds nothing (never a guess), as monthlySavingsOf.
      entry.monthlySavings += monthlyShare(row.pricing?.savings ?? 0, launchMs, endMs);
    }
  }
}

/** Every account's totals in one pass over the policies (AccountTotalsAdder). */
export function totalsByAccount<Row extends CapacityRow>(
  rows: readonly Row[],
  accountOf: (row: Row) => string,
  asOf: Date,
  priceOf: (row: Row) => number | null | undefined = (row) => row.pricing?.ourPrice,
): Map<string, AccountTotals> {
  const adder = new AccountTotalsAdder(accountOf, asOf, priceOf);
  adder.add(rows);
  return adder.totals;
}
