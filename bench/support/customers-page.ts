import { bookAccountName } from '../../sandbox/accounts.js';
import { BOOK_COLUMNS } from '../../shared/customers/book-csv.js';
import { toCsv } from '../../shared/format/csv.js';
import { UNASSIGNED } from '../../shared/ipc/customer-key.js';
import type { Page } from '@playwright/test';
import type { Figure } from '../figure.js';
import { chooseCustomer, HOST_ENTRY, keystroke, openList, requestPart, signIn, startHost, waitForPhase, type WaitParts } from './app-page.js';
import { stopProcess } from './sandbox-process.js';
import { PAGE_RUNS, clickToPaint, loadNow, median, p95, reloadApp, withSyncedApp } from './synced-app.js';

const CUSTOMERS = 2_000;
/**
 * The sandbox user's linked accounts besides their own (sandbox --accounts):
 * about 33 policies each at 100,000. The book holds 2,750 of them; the other
 * 250, and the user's own two, are nobody's.
 */
export const BOOK_ACCOUNTS = 3_000;
/** A customer as most are: three accounts (about 100 policies). Their page is timed. */
export const ANCHOR = 'Anchor Logistics';
/** The one deliberately large customer: 150 accounts (about 5,000 policies). Their page is timed too. */
export const LARGE = 'Large Holdings';
const LARGE_ACCOUNTS = 150;
/** Typed into the list's search within the "no customer" filter, one keystroke at a time. */
const TYPED = ['m5.2xlarge', 'sc_1000', 'analytics', 'use1-az2', 'r6g'].flatMap((word) => Array.from(word, (_, i) => word.slice(0, i + 1)));

/** The book's CSV: 2,000 customers of one to three of the sandbox user's accounts each (the last one of 150), in the book's own form. */
function bookCsv(): string {
  let next = 0;
  const take = (count: number) => Array.from({ length: count }, () => bookAccountName(next++));
  const rows = Array.from({ length: CUSTOMERS }, (_, c) => {
    const last = c === CUSTOMERS - 1;
    const accounts = take(last ? LARGE_ACCOUNTS : c % 10 === 0 ? 3 : c % 10 === 5 ? 2 : 1);
    return [c === 0 ? ANCHOR : last ? LARGE : `Customer ${c}`, `CUST-${c}`, accounts.join('\n'), '', ''];
  });
  return toCsv([...BOOK_COLUMNS], rows);
}

/** The book imported through the app's own channel (a page loaded afresh then lists its customers); answers the import's ms in the page. */
export async function importBook(page: Page): Promise<number> {
  const importing = (await page.evaluate(`(async () => {
    const started = performance.now();
    const answer = await window.api.customers.import({ csv: ${JSON.stringify(bookCsv())} });
    return { answer, ms: performance.now() - started };
  })()`)) as { answer: { ok: boolean; value?: { added: number } }; ms: number };
  const imported = importing.answer;
  if (!imported.ok || imported.value?.added !== CUSTOMERS) throw new Error(`the book was not imported: ${JSON.stringify(imported).slice(0, 300)}`);
  return importing.ms;
}

/** The host.mjs of an earlier build (a copy of its dist/ inside this folder), timed alternately with this one on the same copy. */
const BASE_HOST = process.env.BENCH_BASE_HOST;

/** One run's figures through the page. */
interface PageRun {
  readonly keystrokeP95: number;
  readonly lost: number;
  readonly customerFirstRows: number | null;
  readonly page: number | null;
  readonly largePage: number | null;
  /** Each wait taken apart (medians over the keystrokes): the request's round trip against the page's own parts. */
  readonly parts: { readonly keystroke: WaitParts | null; readonly page: WaitParts | null; readonly largePage: WaitParts | null };
  readonly load: string;
}

/**
 * The customer book through the page (issue 26): the book imported through
 * the app's own channel, then per run the page loaded afresh, the capacity
 * list's "no customer" filter with a keystroke timed from the input event to
 * the frame painted, the filter set to one customer timed to their first rows
 * painted, and a customer page from the click on their name to its first rows
 * painted. Medians of the runs, each run's load average beside.
 *
 * BENCH_BASE_HOST times that build alternately with this one on the same copy
 * and book, in one sitting (each run a host of each, the copy's refresh after
 * its launch awaited first), and prints this build's medians over the base's.
 */
export async function customersThroughPage(policies: number): Promise<Figure[]> {
  return withSyncedApp(
    policies,
    async ({ page, host: first, dataDir, browser, policies: synced }) => {
      const importLoad = loadNow();
      const importMs = await importBook(page);
      const at = `2k customers / ${Math.round(synced / 1000)}k policies, through the page`;
      const figures: Figure[] = [
        { name: `${at}: book import of ${CUSTOMERS.toLocaleString('en')} customers through the app's channel`, value: Math.round(importMs), unit: 'ms', budget: '', load: importLoad },
      ];
      if (!BASE_HOST) {
        const runs: PageRun[] = [];
        for (let run = 0; run < PAGE_RUNS; run += 1) {
          await reloadApp(page);
          runs.push(await timeRun(page, `run ${run + 1}`));
        }
        return [...figures, ...runFigures(at, runs)];
      }
      await stopProcess(first.child);
      const builds = [
        { label: 'base', entry: BASE_HOST },
        { label: 'this build', entry: HOST_ENTRY },
      ];
      const runs = new Map<string, PageRun[]>(builds.map((build) => [build.label, []]));
      for (let run = 0; run < PAGE_RUNS; run += 1) {
        for (const build of builds) {
          const host = await startHost(dataDir, build.entry);
          const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
          try {
            await fresh.goto(host.launchUrl);
            await fresh.waitForURL((url) => !url.pathname.startsWith('/__launch'));
            await fresh.getByTestId('tile-launching').or(fresh.getByRole('button', { name: 'Sign in' })).first().waitFor({ timeout: 120_000 });
            if (await fresh.getByRole('button', { name: 'Sign in' }).isVisible()) await signIn(fresh);
            // The refresh every launch starts is let end: keystrokes typed during it time the refresh, not the list.
            await waitForPhase(host, 'done', 30 * 60_000);
            runs.get(build.label)?.push(await timeRun(fresh, `run ${run + 1} (${build.label})`));
          } finally {
            await fresh.close();
            await stopProcess(host.child);
          }
        }
      }
      const base = runs.get('base') ?? [];
      const now = runs.get('this build') ?? [];
      const ratio = (of: (run: PageRun) => number | null) => Math.round((100 * median(now.map(of))) / median(base.map(of)));
      const loads = [...base, ...now].map((r) => r.load).join('/');
      return [
        ...figures,
        ...runFigures(`${at} (base)`, base),
        ...runFigures(at, now),
        { name: `${at}: keystroke p95, this build / base (same sitting, runs alternated)`, value: ratio((r) => r.keystrokeP95), unit: '%', load: loads },
        { name: `${at}: customer filter first rows, this build / base`, value: ratio((r) => r.customerFirstRows), unit: '%', load: loads },
        { name: `${at}: customer page, this build / base`, value: ratio((r) => r.page), unit: '%', load: loads },
        { name: `${at}: large customer's page, this build / base`, value: ratio((r) => r.largePage), unit: '%', load: loads },
      ];
    },
    { accounts: BOOK_ACCOUNTS },
  );
}

/** One run: keystrokes within "No customer", one customer's first rows in the list, and two customer pages. */
async function timeRun(page: Page, label: string): Promise<PageRun> {
  await openList(page);
  await page.getByTestId('customer-filter').selectOption(UNASSIGNED);
  const typed: Array<number | null> = [];
  const typedParts: WaitParts[] = [];
  for (const text of TYPED) {
    const ms = await keystroke(page, text);
    typed.push(ms);
    const parts = await requestPart(page, 'capacity.list', ms);
    if (parts) typedParts.push(parts);
  }
  await keystroke(page, '');
  const customerFirstRows = await chooseCustomer(page, ANCHOR);

  await openCustomerBook(page);
  await page.getByTestId('customer-book').getByRole('button', { name: ANCHOR, exact: true }).waitFor();
  const customerPage = await clickToPaint(page, `[data-testid="customer-book"] button[title="${ANCHOR}"]`, '[data-testid="customer-capacity"] tbody tr');
  const pageParts = await requestPart(page, 'customers.page', customerPage);
  await openCustomerBook(page);
  await page.getByTestId('customer-book').getByRole('button', { name: LARGE, exact: true }).waitFor();
  const largePage = await clickToPaint(page, `[data-testid="customer-book"] button[title="${LARGE}"]`, '[data-testid="customer-capacity"] tbody tr');
  const largeParts = await requestPart(page, 'customers.page', largePage);
  const keystrokeParts = typedParts.length
    ? {
        toRequest: median(typedParts.map((p) => p.toRequest)),
        roundTrip: median(typedParts.map((p) => p.roundTrip)),
        afterAnswer: median(typedParts.map((p) => p.afterAnswer)),
        // A build before the host said its part (Server-Timing) has none.
        host: typedParts.every((p) => p.host !== null) ? median(typedParts.map((p) => p.host)) : null,
      }
    : null;
  const parts = { keystroke: keystrokeParts, page: pageParts, largePage: largeParts };
  const run = { keystrokeP95: p95(typed), lost: typed.filter((ms) => ms === null).length, customerFirstRows, page: customerPage, largePage, parts, load: loadNow() };
  const ms = (value: number | null) => (value === null ? 'none within 10 s' : `${Math.round(value)} ms`);
  const apart = (p: WaitParts | null) => (p ? ` (to request ${Math.round(p.toRequest)}, round trip ${Math.round(p.roundTrip)}${p.host === null ? '' : ` of which the host's dispatch ${Math.round(p.host)}`}, after the answer ${Math.round(p.afterAnswer)})` : '');
  process.stderr.write(
    `  customers through the page, ${label}: keystroke p95 ${ms(run.keystrokeP95)}${apart(parts.keystroke)} [median parts], customer filter first rows ${ms(customerFirstRows)}, customer page ${ms(customerPage)}${apart(parts.page)}, large customer's ${ms(largePage)}${apart(parts.largePage)}, load ${run.load}\n`,
  );
  return run;
}

/** The medians of the runs against their budgets (NO when missed), the runs' loads beside. */
function runFigures(at: string, runs: readonly PageRun[]): Figure[] {
  const load = runs.map((r) => r.load).join('/');
  const of = (pick: (run: PageRun) => number | null) => Math.round(median(runs.map(pick)) * 10) / 10;
  const keyP95 = of((r) => r.keystrokeP95);
  const firstRows = of((r) => r.customerFirstRows);
  const pageMs = of((r) => r.page);
  const largeMs = of((r) => r.largePage);
  const lost = runs.reduce((sum, r) => sum + r.lost, 0);
  return [
    { name: `${at}: keystroke to repaint p95 in the no-customer filter (median of ${runs.length} runs)`, value: keyP95, unit: 'ms', budget: '<= 33', withinBudget: keyP95 <= 33, load },
    { name: `${at}: keystrokes with no repaint within 10 s`, value: lost, unit: 'keys', budget: '<= 0', withinBudget: lost === 0, load },
    { name: `${at}: customer filter, first rows painted (3 accounts, ~100 policies; median of ${runs.length})`, value: firstRows, unit: 'ms', budget: '<= 150', withinBudget: firstRows <= 150, load },
    { name: `${at}: customer page (3 accounts, ~100 policies), click to first rows painted (median of ${runs.length})`, value: pageMs, unit: 'ms', budget: '<= 150', withinBudget: pageMs <= 150, load },
    { name: `${at}: large customer's page (${LARGE_ACCOUNTS} accounts, ~5,000 policies), click to first rows painted (median of ${runs.length})`, value: largeMs, unit: 'ms', budget: '<= 150', withinBudget: largeMs <= 150, load },
  ];
}

async function openCustomerBook(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
}
