import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { expect, listFromOtherWindow, otherWindow, signInAs, test } from './support/capacity.js';

/**
 * Branch day13 (an account manager's day): the figures a customer hears in a review. A customer page states its
 * amounts in the environment's currency, as the overview does, and the savings it says were delivered this year
 * stay delivered when the app cancels one of the customer's running policies.
 */
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function replicaReady(page: Page): Promise<void> {
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
}

/** "USD 407,301.49" -> 407301.49 (the tile's figure, its currency asserted apart). */
const amountOf = (text: string | null): number => Number((text ?? '').replace(/[^\d.-]/g, ''));

async function openCustomer(page: Page, name: string): Promise<void> {
  await nav(page).getByRole('button', { name: 'Customers', exact: true }).click();
  await page.getByTestId('customer-book').getByRole('button', { name, exact: true }).click();
  await expect(page.getByTestId('customer-page').getByRole('heading', { name, level: 1 })).toBeVisible();
}

const tileValue = (page: Page, testid: string) => page.getByTestId('customer-page').getByTestId(testid).getByTestId('figure-value');

test('a customer’s figures are in the environment’s currency, and a cancel made here keeps the savings the policy delivered', async ({ app, openApp }) => {
  test.setTimeout(90_000);
  const page = await openApp();
  await signInAs(page);
  await replicaReady(page);
  // The running active policy that has delivered the most this year: the one whose loss a review would notice.
  const active = (await listFromOtherWindow(app, { status: 'ACTIVE', limit: 500 })).rows as CapacityPolicy[];
  const now = Date.now();
  const yearStart = Date.UTC(new Date(now).getUTCFullYear(), 0, 1);
  const delivered = (p: CapacityPolicy) => {
    const launch = Date.parse(p.capacityConfiguration?.launchDateTime ?? '');
    const end = Date.parse(p.capacityConfiguration?.endDateTime ?? '');
    const ran = Math.min(now, end) - Math.max(launch, yearStart);
    return ran > 0 && end > launch ? ((p.pricing?.savings ?? 0) * ran) / (end - launch) : 0;
  };
  const running = active.filter((p) => delivered(p) > 0).sort((a, b) => delivered(b) - delivered(a))[0];
  if (!running) throw new Error('the seeded sandbox has no running active policy');
  expect(delivered(running)).toBeGreaterThan(100);
  await otherWindow(app)['customers.save']({ name: 'Northwind', externalIds: [], accounts: [running.cspAccountName!], contact: '', notes: '' });

  // The page's tiles and the overview's ranking name the currency, as every other amount does.
  await openCustomer(page, 'Northwind');
  await expect(page.getByTestId('customer-page').getByTestId('total-active').locator('.meaning')).toHaveText(`${active.filter((p) => p.cspAccountName === running.cspAccountName).length} capacity`);
  for (const testid of ['total-spend', 'total-savings-month', 'total-savings-year', 'total-fees']) await expect(tileValue(page, testid)).toHaveText(/^USD\s[\d,]+\.\d\d$/);
  const yearBefore = amountOf(await tileValue(page, 'total-savings-year').textContent());
  await nav(page).getByRole('button', { name: 'Overview', exact: true }).click();
  await expect(page.getByTestId('top-by-spend').locator('.num').first()).toHaveText(/^USD\s[\d,]+\.\d\d$/);
  await expect(page.getByTestId('top-by-savings').locator('.num').first()).toHaveText(/^USD\s[\d,]+\.\d\d$/);
  await openCustomer(page, 'Northwind');

  // Canceled here: the savings of the part that ran were delivered, and the year's figure keeps them.
  await otherWindow(app)['capacity.cancel']({ cidrId: running.cidrId });
  await page.getByTestId('customer-page').getByRole('button', { name: 'Refresh', exact: true }).click();
  // The page read again after the cancel: one active policy fewer on the account.
  const activeOnAccount = active.filter((p) => p.cspAccountName === running.cspAccountName).length;
  await expect(page.getByTestId('customer-page').getByTestId('total-active').locator('.meaning')).toHaveText(`${activeOnAccount - 1} capacity`, { timeout: 20_000 });
  const yearAfter = amountOf(await tileValue(page, 'total-savings-year').textContent());
  // Time went on between the two reads (a few units of savings at most); the cancel took nothing away.
  expect(yearAfter).toBeGreaterThanOrEqual(yearBefore);
  expect(yearAfter - yearBefore).toBeLessThan(delivered(running) / 2);
});

test.describe('on a computer set to UTC', () => {
  test.use({ timezoneId: 'UTC', shareApp: true });

  test('the calendar export says its times are UTC, not an empty choice', async ({ openSignedIn }) => {
    const page = await openSignedIn();
    await nav(page).getByRole('button', { name: 'Renewals', exact: true }).click();
    const times = page.getByLabel('Times at');
    // -0 (UTC's offset negated) matched none of the choices: the field showed nothing chosen.
    await expect(times).toHaveValue('0');
    await expect(times.locator('option:checked')).toHaveText('UTC');
  });
});
