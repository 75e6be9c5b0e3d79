/**
 * money18 (day17, issue 28): the renewal worklist's "Our price" and "Savings" had no currency, the only amounts of the
 * app without one; day17's mend wrote it in each cell, widened the grid and broke laptop-width.spec at 1,280 px in CI.
 * The currency is now said once, in the two columns' headings ("Our price (USD)"), and at 1,280 and 1,680 px no
 * column but the names is cut: the instance count (it was cut off "r5.2xlarge …"), the window, what is coming up,
 * the amounts, the auto-renewal and the "Note and snooze" button are each whole inside their cell, and the grid does
 * not scroll sideways. The service's own worklist answer is the expected value of every drawn row.
 */
import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { formatAmount } from '../../shared/format/money.js';
import { WorklistQuery, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { readCsv } from './cyber-support.js';
import { expect, navTo, otherWindow, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });

interface DrawnRow {
  id: string;
  price: string;
  savings: string;
  instances: string;
  /** Texts of the cells (names aside) whose text or control is cut by the cell or runs out of it. */
  cut: string[];
}

/** Every drawn row: its amounts and instances as shown (no-break spaces read as spaces), and what in it is cut. */
async function drawnRows(page: Page): Promise<DrawnRow[]> {
  return page.getByTestId('worklist-table').locator('.vt-data-row:not(.loading)').evaluateAll((rows) =>
    rows.map((row) => {
      const text = (selector: string) => (row.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
      const cut: string[] = [];
      // The policy's and customer's names are cut with an ellipsis by design (their whole text is their title).
      const cells = [...row.querySelectorAll('[role="gridcell"]')].filter((cell) => !cell.querySelector('[data-cidr-id]') && !cell.querySelector('bdi[title]'));
      for (const cell of cells) {
        const box = cell.getBoundingClientRect();
        const inner = [cell, ...cell.querySelectorAll('*')];
        const overflowing = inner.find((element) => {
          const own = element.getBoundingClientRect();
          if (own.width === 0) return false;
          return element.scrollWidth > element.clientWidth + 1 || own.left < box.left - 1 || own.right > box.right + 1;
        });
        // An amount aligned to its track's end is a cell as wide as its text: too wide, it runs into the column before.
        const before = cell.previousElementSibling?.getBoundingClientRect().right ?? -Infinity;
        if (overflowing || box.left < before - 1) {
          const own = (overflowing ?? cell).getBoundingClientRect();
          const where = `${overflowing?.tagName ?? 'cell'} ${overflowing?.scrollWidth}/${overflowing?.clientWidth}, ${Math.round(own.left)}-${Math.round(own.right)} in ${Math.round(box.left)}-${Math.round(box.right)}, after ${Math.round(before)}`;
          cut.push(`${(cell.textContent ?? '').replace(/\s+/g, ' ').trim()} (${where})`);
        }
      }
      return {
        id: row.querySelector('[data-cidr-id]')?.getAttribute('data-cidr-id') ?? '',
        price: text('[data-testid="worklist-price"]'),
        savings: text('[data-testid="worklist-savings"]'),
        instances: `${text('[data-testid="worklist-instance-type"]')} ${text('[data-testid="worklist-instance-count"]')}`,
        cut,
      };
    }),
  );
}

/** Three frames painted, however long the load makes them: the grid's tracks are measured and drawn by then. */
const settled = (page: Page) =>
  page.evaluate(`new Promise((resolve) => {
    let left = 3;
    const tick = () => (--left <= 0 ? setTimeout(resolve, 0) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  })`);

for (const width of [1280, 1680]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the worklist’s amounts say their currency in their headings, and no number or button is cut', async ({ openSignedIn, app }) => {
      const page = await openSignedIn();
      await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
      await navTo(page, 'Renewals');
      const grid = page.getByTestId('worklist-table');
      await expect(grid.locator('.vt-data-row:not(.loading)').first()).toBeVisible();
      // The Sandbox environment's currency (its agreement terms), said once per column.
      await expect(grid.locator('[role="columnheader"][data-column="price"]')).toHaveText('Our price (USD)');
      await expect(grid.locator('[role="columnheader"][data-column="savings"]')).toHaveText('Savings (USD)');

      const expected: WorklistWindow = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 30, limit: 500 }));
      const byId = new Map(expected.rows.map((row) => [row.policy.cidrId, row.policy]));
      // Rows are drawn as their page arrives: read once every drawn row holds its amounts.
      await expect.poll(async () => (await drawnRows(page)).filter((row) => row.price !== '' && row.savings !== '').length).toBeGreaterThan(3);
      await settled(page);
      const drawn = (await drawnRows(page)).filter((row) => row.price !== '');
      for (const row of drawn) {
        const policy = byId.get(row.id);
        expect(policy, row.id).toBeDefined();
        const amount = (value: number | undefined) => (typeof value === 'number' ? formatAmount(value, 'en-US') : '—');
        expect(row.price, row.id).toBe(amount(policy?.pricing?.ourPrice));
        expect(row.savings, row.id).toBe(amount(policy?.pricing?.savings));
        const qty = policy?.policyInstance?.qty;
        expect(row.instances, row.id).toBe(`${policy?.policyInstance?.instanceType} ${qty} ${qty === 1 ? 'instance' : 'instances'}`);
        expect(row.cut, `${row.id}: cut at ${width} px`).toEqual([]);
      }

      // The grid fits the window: nothing to scroll sideways to, and every row's last control inside the window.
      const fit = await grid.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, right: element.getBoundingClientRect().right, window: element.ownerDocument.documentElement.clientWidth }));
      expect(fit.scroll, JSON.stringify(fit)).toBeLessThanOrEqual(fit.client);
      expect(fit.right, JSON.stringify(fit)).toBeLessThanOrEqual(fit.window);
      const note = await grid.getByRole('button', { name: /^Note and snooze for / }).first().boundingBox();
      expect(note!.x + note!.width, JSON.stringify(note)).toBeLessThanOrEqual(fit.right);
    });
  });
}

test('the worklist’s export of a selection says the currency of its amounts, in a column of its own (money18)', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  await navTo(page, 'Renewals');
  const grid = page.getByTestId('worklist-table');
  const rows = grid.locator('.vt-data-row:not(.loading)');
  await expect(rows.nth(1)).toBeVisible();
  const expected: WorklistWindow = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 30, limit: 500 }));
  const chosen = expected.rows.slice(0, 2);
  for (const row of chosen) {
    await grid.getByRole('checkbox', { name: `Select ${row.policy.policyName ?? row.policy.cidrId} (${row.policy.cidrId})`, exact: true }).check();
  }
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-selection').click();
  // Read by the tests' own RFC 4180 reader, not the app's writer (its first character is the BOM).
  const sheet = readCsv((await readFile((await (await downloading).path()) as string, 'utf8')).replace(/^\uFEFF/, ''));
  const header = sheet[0] ?? [];
  const at = (label: string) => header.indexOf(label);
  expect(header.slice(at('Our price'), at('Savings') + 1)).toEqual(['Our price', 'Currency', 'Savings']);
  expect(sheet.slice(1).filter((line) => line.length > 1).map((line) => [line[0], line[at('Our price')], line[at('Currency')], line[at('Savings')]])).toEqual(
    chosen.map((row) => [row.policy.cidrId, String(row.policy.pricing?.ourPrice), 'USD', String(row.policy.pricing?.savings)]),
  );
});
