/**
 * Issue 26 (branch cust16, item 4): the overview's savings tile and the customer page count the *running* active
 * policies (launched, or launch not known: `launchesLater` in summarize.ts), and their links opened every active
 * policy. Each now opens the capacity list on exactly the policies it counts: status Active and "Running now".
 */
import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { expect, listFromOtherWindow, otherWindow, signInAs, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1280, height: 900 } });

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const running = (p: CapacityPolicy, now: number) => {
  const launch = Date.parse(p.capacityConfiguration?.launchDateTime ?? '');
  return !(Number.isFinite(launch) && launch > now);
};

async function listTotal(page: Page): Promise<number> {
  const summary = page.getByTestId('list-summary');
  await expect(summary).toContainText('running', { timeout: 30_000 });
  await expect(summary).not.toContainText('loading rows');
  return Number((await summary.locator('strong').innerText()).replace(/[^\d]/g, ''));
}

test('the savings tile and the customer page open the list on the running policies they count', async ({ app, openApp }) => {
  const page = await openApp();
  await signInAs(page);
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 60_000 });
  const now = Date.now();
  const active = (await listFromOtherWindow(app, { status: 'ACTIVE', limit: 500 })).rows as CapacityPolicy[];
  const runningNow = active.filter((p) => running(p, now));
  expect(active.length - runningNow.length, 'the seeded list has active policies launching later').toBeGreaterThan(0);

  // A search left in the list from before does not narrow what the link opens.
  await nav(page).getByRole('button', { name: 'Capacity policies', exact: true }).click();
  await page.getByTestId('list-search').fill(runningNow[0]!.cidrId);
  await expect(page.getByTestId('list-summary')).toContainText('matching');

  // The overview's tile: "Summed over N running policies"; its link lists those N.
  await nav(page).getByRole('button', { name: 'Overview', exact: true }).click();
  const tile = page.getByTestId('tile-savings');
  await expect(tile).toContainText(`Summed over ${runningNow.length.toLocaleString('en-US')} running`);
  await tile.getByRole('button', { name: 'Open the running policies' }).click();
  expect(await listTotal(page)).toBe(runningNow.length);
  await expect(page.getByTestId('capacity-filters').getByRole('checkbox', { name: 'Running now' })).toBeChecked();

  // A customer whose account holds running policies and one launching later: "N running" opens those N.
  const account = active.find((p) => !running(p, now) && active.some((q) => q.cspAccountName === p.cspAccountName && running(q, now)))?.cspAccountName;
  if (!account) throw new Error('the seeded sandbox has no account with running and later active policies');
  const theirs = runningNow.filter((p) => p.cspAccountName === account);
  await otherWindow(app)['customers.save']({ name: 'Fabrikam', externalIds: [], accounts: [account], contact: '', notes: '' });
  await nav(page).getByRole('button', { name: 'Customers', exact: true }).click();
  await page.getByTestId('customer-book').getByRole('button', { name: 'Fabrikam', exact: true }).click();
  const activeTile = page.getByTestId('customer-page').getByTestId('total-active');
  await expect(activeTile.locator('.meaning')).toContainText(`Capacity policies: ${theirs.length} running`);
  await activeTile.getByTestId('open-running').click();
  expect(await listTotal(page)).toBe(theirs.length);
  for (const policy of theirs.slice(0, 10)) await expect(page.getByTestId('capacity-list-view')).toContainText(policy.cidrId);
});

test.describe('before the local copy exists', () => {
  // No copy at the sign-in: the overview is counted from the service, and the list pages the service by status only.
  test.use({ appOptions: { refreshReplicaAtSignIn: false } });

  // review16: the savings tile's link set "Running now" while the list paged the service, which filters by status
  // only: every active policy was listed under "N running capacity policies", those launching later among them.
  test('the savings tile’s link does not call every active policy running while the list pages the service', async ({ app, openApp }) => {
    const page = await openApp();
    await signInAs(page);
    const now = Date.now();
    const active = (await listFromOtherWindow(app, { status: 'ACTIVE', limit: 500 })).rows as CapacityPolicy[];
    const runningNow = active.filter((p) => running(p, now));
    expect(active.length - runningNow.length, 'the seeded list has active policies launching later').toBeGreaterThan(0);
    await page.getByTestId('tile-savings').getByRole('button', { name: 'Open the running policies' }).click();
    await expect(page.getByTestId('list-paged-live')).toBeVisible();
    const summary = page.getByTestId('list-summary');
    await expect(summary.locator('strong')).toHaveText(/\d/, { timeout: 30_000 });
    await expect(summary).not.toContainText('loading rows');
    const shown = Number((await summary.locator('strong').innerText()).replace(/[^\d]/g, ''));
    // Either the list holds only the running ones, or it does not call what it holds running.
    if (shown !== runningNow.length) await expect(summary).not.toContainText('running');
  });
});

