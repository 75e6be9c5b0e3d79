import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { expect, listFromOtherWindow, otherWindow, test } from './support/capacity.js';

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

/** Signed in with the copy filled (90 s: a fill beside the page), and the user's active policies as the service lists them. */
async function signedInWithActive(app: Parameters<typeof listFromOtherWindow>[0], openSignedIn: () => Promise<Page>) {
  test.setTimeout(90_000);
  const page = await openSignedIn();
  await replicaReady(page);
  const active = (await listFromOtherWindow(app, { status: 'ACTIVE', limit: 500 })).rows as CapacityPolicy[];
  return { page, active, now: Date.now() };
}

const tileValue = (page: Page, testid: string) => page.getByTestId('customer-page').getByTestId(testid).getByTestId('figure-value');

test('a customer’s figures are in the environment’s currency, and a cancel made here keeps the savings the policy delivered', async ({ app, openSignedIn }) => {
  const { page, active, now } = await signedInWithActive(app, openSignedIn);
  // The running active policy that has delivered the most this year: the one whose loss a review would notice.
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
  await expect(tileValue(page, 'total-active')).toHaveText(active.filter((p) => p.cspAccountName === running.cspAccountName).length.toLocaleString('en-US'));
  for (const testid of ['total-spend', 'total-savings-month', 'total-savings-year']) await expect(tileValue(page, testid)).toHaveText(/^USD\s[\d,]+\.\d\d$/);
  // One figure, or the two ways of paying the processing fees (card, bank transfer), lower first (money14).
  await expect(tileValue(page, 'total-fees')).toHaveText(/^USD\s[\d,]+\.\d\d( – USD\s[\d,]+\.\d\d)?$/);
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
  await expect(tileValue(page, 'total-active')).toHaveText((activeOnAccount - 1).toLocaleString('en-US'), { timeout: 20_000 });
  const yearAfter = amountOf(await tileValue(page, 'total-savings-year').textContent());
  // Time went on between the two reads (a few units of savings at most); the cancel took nothing away.
  expect(yearAfter).toBeGreaterThanOrEqual(yearBefore);
  expect(yearAfter - yearBefore).toBeLessThan(delivered(running) / 2);
});

test('the active figure counts their capacity policies and holds when their DR lists are read; the spend leaves out those launching later (money14)', async ({ app, openSignedIn }) => {
  const { page, active, now } = await signedInWithActive(app, openSignedIn);
  const launchesLater = (p: CapacityPolicy) => Date.parse(p.capacityConfiguration?.launchDateTime ?? '') > now + 600_000;
  // An account with both a running active policy and one launching later.
  const account = active.find((p) => launchesLater(p) && active.some((q) => q.cspAccountName === p.cspAccountName && !launchesLater(q)))?.cspAccountName;
  if (!account) throw new Error('the seeded sandbox has no account with running and later active policies');
  const theirs = active.filter((p) => p.cspAccountName === account);
  const later = theirs.filter(launchesLater);
  // Their DR id is not in the copy yet: the page's own DR read is the first to keep its list.
  await otherWindow(app)['customers.save']({ name: 'Fabrikam', externalIds: ['CUST-1001'], accounts: [account], contact: '', notes: '' });

  await openCustomer(page, 'Fabrikam');
  const tile = page.getByTestId('customer-page').getByTestId('total-active');
  await expect(tileValue(page, 'total-active')).toHaveText(theirs.length.toLocaleString('en-US'));
  await expect(page.getByTestId('customer-page').getByTestId('customer-dr').getByRole('button').first()).toBeVisible();
  const dr = (await otherWindow(app)['cyber.list']({ customerId: 'CUST-1001', page: 1, pageSize: 100 })) as { data: Array<{ policyStatus: string }> };
  const drActive = dr.data.filter((item) => item.policyStatus === 'ACTIVE').length;
  expect(drActive).toBeGreaterThan(0);
  // Read again once the DR list is kept in the copy: before money14 the figure then added its active DR policies (day13).
  await page.getByTestId('customer-page').getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(page.getByTestId('customer-page').getByTestId('customer-dr').getByRole('button').first()).toBeVisible();
  await expect(tileValue(page, 'total-active')).toHaveText(theirs.length.toLocaleString('en-US'));
  // What it counts, said: running and launching later; the DR policies from the lists the page shows.
  await expect(tile.locator('.meaning')).toContainText(`Capacity policies: ${theirs.length - later.length} running, ${later.length} launching later.`);
  await expect(tile.locator('.meaning')).toContainText(`${drActive} active DR ${drActive === 1 ? 'policy' : 'policies'} in their DR lists below`);
  await expect(page.getByTestId('customer-page').getByTestId('total-spend').locator('.meaning')).toContainText(
    `Not counted: ${later.length} active ${later.length === 1 ? 'policy' : 'policies'} launching later`,
  );
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
