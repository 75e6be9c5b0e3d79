/**
 * day17: the renewal worklist's "Our price" and "Savings" were plain numbers ("253,581.27"), the only amounts of
 * the app without their currency, beside a customer page and an overview that say "USD". Each amount now says it,
 * and is shown whole (not cut by its column) at 1,280 and 1,680 px. The service's own list is the expected value:
 * every drawn row's price and savings are its policy's, in the environment's currency.
 */
import type { Page } from '@playwright/test';
import { WorklistQuery, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { expect, navTo, otherWindow, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });

const money = (value: number) => `USD ${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Every drawn price and savings cell: its text (a no-break space read as a space), and whether its text is cut or overlaps. */
async function drawnAmounts(page: Page): Promise<{ id: string; price: string; savings: string; cut: boolean }[]> {
  return page.getByTestId('worklist-table').locator('.vt-data-row:not(.loading)').evaluateAll((rows) =>
    rows.map((row) => {
      const price = row.querySelector<HTMLElement>('[data-testid="worklist-price"]')!;
      const savings = row.querySelector<HTMLElement>('[data-testid="worklist-savings"]')!;
      // Cut: wider than its cell (an ellipsis), or, in a cell sized to its text at the end of its track, running
      // into the column before it (the text then overlaps that column's).
      const isCut = (element: HTMLElement) => {
        const cell = element.closest<HTMLElement>('.vt-cell') ?? element;
        const before = cell.previousElementSibling?.getBoundingClientRect().right ?? -Infinity;
        return cell.scrollWidth > cell.clientWidth || element.getBoundingClientRect().left < before - 0.5;
      };
      return { id: row.querySelector('[data-cidr-id]')?.getAttribute('data-cidr-id') ?? '', price: (price.textContent ?? '').replace(/\s/g, ' '), savings: (savings.textContent ?? '').replace(/\s/g, ' '), cut: isCut(price) || isCut(savings) };
    }),
  );
}

for (const width of [1280, 1680]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('each price and savings in the renewal worklist says its currency and is shown whole', async ({ openSignedIn, app }) => {
      const page = await openSignedIn();
      await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
      await navTo(page, 'Renewals');
      const rows = page.getByTestId('worklist-table').locator('.vt-data-row:not(.loading)');
      await expect(rows.first()).toBeVisible();
      const expected: WorklistWindow = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 30, limit: 500 }));
      const byId = new Map(expected.rows.map((row) => [row.policy.cidrId, row.policy.pricing]));
      // Read when every drawn row holds its amounts (rows are drawn as their page arrives).
      await expect.poll(async () => (await drawnAmounts(page)).filter((row) => row.price !== '' && row.savings !== '').length).toBeGreaterThan(1);
      const drawn = await drawnAmounts(page);
      for (const row of drawn) {
        const pricing = byId.get(row.id);
        expect(pricing, row.id).toBeDefined();
        expect(row.price, row.id).toBe(typeof pricing?.ourPrice === 'number' ? money(pricing.ourPrice) : '—');
        expect(row.savings, row.id).toBe(typeof pricing?.savings === 'number' ? money(pricing.savings) : '—');
        expect(row.cut, `${row.id}: ${row.price} / ${row.savings} cut by its column`).toBe(false);
      }
    });
  });
}
