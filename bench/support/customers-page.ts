import { BOOK_COLUMNS } from '../../shared/customers/book-csv.js';
import { toCsv } from '../../shared/format/csv.js';
import { UNASSIGNED } from '../../shared/ipc/customer-key.js';
import type { Figure } from '../figure.js';
import { keystroke, openList } from './app-page.js';
import { PAGE_RUNS, clickToPaint, loadNow, median, reloadApp, withSyncedApp } from './synced-app.js';

const CUSTOMERS = 2_000;
const ACCOUNTS_PER_CUSTOMER = 3;
/** The customer whose page is timed: they hold the sandbox user's first AWS account, the second is nobody's. */
const ANCHOR = 'Anchor Logistics';
const HELD_ACCOUNT = 'morgan-prod';
/** Typed into the list's search within the "no customer" filter, one keystroke at a time. */
const TYPED = ['m5.2xlarge', 'sc_1000', 'analytics', 'use1-az2', 'r6g'].flatMap((word) => Array.from(word, (_, i) => word.slice(0, i + 1)));

/** 2,000 customers of three accounts each, as the book's CSV: the anchor holds a real account, the others accounts with no policies. */
function bookCsv(): string {
  const rows = Array.from({ length: CUSTOMERS }, (_, c) => {
    const accounts = Array.from({ length: ACCOUNTS_PER_CUSTOMER }, (_, a) => `acct-${c}-${a}`);
    if (c === 0) accounts[0] = HELD_ACCOUNT;
    return [c === 0 ? ANCHOR : `Customer ${c}`, `CUST-${c}`, accounts.join('\n'), '', ''];
  });
  return toCsv([...BOOK_COLUMNS], rows);
}

function p95(values: ReadonlyArray<number | null>): number {
  const sorted = values.map((v) => v ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

/**
 * The customer book through the page (issue 26): the book imported through
 * the app's own channel, then per run the page loaded afresh, the capacity
 * list's "no customer" filter with a keystroke timed from the input event to
 * the frame painted, and a customer page from the click on their name to its
 * first rows painted. Medians of the runs, each run's load average beside.
 */
export async function customersThroughPage(policies: number): Promise<Figure[]> {
  return withSyncedApp(policies, async ({ page, policies: synced }) => {
    const imported = (await page.evaluate(`window.api.customers.import({ csv: ${JSON.stringify(bookCsv())} })`)) as { ok: boolean; value?: { added: number } };
    if (!imported.ok || imported.value?.added !== CUSTOMERS) throw new Error(`the book was not imported: ${JSON.stringify(imported).slice(0, 300)}`);
    const keys: number[] = [];
    const pages: Array<number | null> = [];
    const loads: string[] = [];
    let lost = 0;
    for (let run = 0; run < PAGE_RUNS; run += 1) {
      await reloadApp(page);
      await openList(page);
      await page.getByTestId('customer-filter').selectOption(UNASSIGNED);
      const typed: Array<number | null> = [];
      for (const text of TYPED) typed.push(await keystroke(page, text));
      lost += typed.filter((ms) => ms === null).length;
      keys.push(p95(typed));

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
      await page.getByTestId('customer-book').getByRole('button', { name: ANCHOR, exact: true }).waitFor();
      pages.push(await clickToPaint(page, `[data-testid="customer-book"] button[title="${ANCHOR}"]`, '[data-testid="customer-capacity"] tbody tr'));
      loads.push(loadNow());
      process.stderr.write(`  customers through the page, run ${run + 1}: keystroke p95 ${Math.round(keys[run] ?? NaN)} ms, customer page ${Math.round(pages[run] ?? NaN)} ms, load ${loads[run]}\n`);
    }
    const load = loads.join('/');
    const at = `2k customers / ${Math.round(synced / 1000)}k policies, through the page`;
    const keyP95 = Math.round(median(keys) * 10) / 10;
    const pageMs = Math.round(median(pages) * 10) / 10;
    return [
      { name: `${at}: keystroke to repaint p95 in the no-customer filter (median of ${PAGE_RUNS} runs)`, value: keyP95, unit: 'ms', budget: '<= 33', withinBudget: keyP95 <= 33, load },
      { name: `${at}: keystrokes with no repaint within 10 s`, value: lost, unit: 'keys', budget: '<= 0', withinBudget: lost === 0, load },
      { name: `${at}: customer page, click to first rows painted (median of ${PAGE_RUNS})`, value: pageMs, unit: 'ms', budget: '<= 150', withinBudget: pageMs <= 150, load },
    ];
  });
}
