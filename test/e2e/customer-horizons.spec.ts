/**
 * day17: a customer page's "Coming up" table counted under "Ends" only the ends without auto-renewal (the others under
 * "Renews"), while the list below it tags every end "Ends": Northwind read 4 "Ends" and 2 "Renews" within 30 days
 * beside six ends listed. The columns now say which ends they count, and together they are the ends the list shows,
 * split by the service's own auto-renewal of each.
 */
import type { Page } from '@playwright/test';
import { CapacityPolicy } from '../../shared/api/capacity.js';
import { expect, listFromOtherWindow, otherWindow, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });

async function openCustomer(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
  await page.getByTestId('customer-book').getByRole('button', { name, exact: true }).click();
  await expect(page.getByTestId('customer-page').getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('the “Coming up” table says which ends renew, and its ends are the ends listed below it', async ({ app, openSignedIn }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 60_000 });
  const all = await listFromOtherWindow(app, { offset: 0, limit: 500, sortOrder: 'asc' });
  const policies = all.rows.map((row) => CapacityPolicy.parse(row));
  // The account with the most policies: its customer has ends of both kinds within 90 days in the seeded sandbox.
  const counts = new Map<string, number>();
  for (const policy of policies) if (policy.cspAccountName) counts.set(policy.cspAccountName, (counts.get(policy.cspAccountName) ?? 0) + 1);
  const account = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  await otherWindow(app)['customers.save']({ name: 'Northwind', externalIds: [], accounts: [account], contact: '', notes: '' });
  await openCustomer(page, 'Northwind');

  const table = page.getByTestId('horizons');
  await expect(table.locator('thead th')).toHaveText(['Within', 'Launches', 'Ends without auto-renewal', 'Ends with auto-renewal']);
  const ninety = table.locator('tbody tr').filter({ hasText: '90 days' });
  const [without, withRenewal] = (await ninety.locator('td').allInnerTexts()).slice(1).map(Number) as [number, number];

  // The list holds every launch and end of the 90 days (at most 50: fewer here, so none is left out).
  const items = page.getByTestId('customer-milestones').locator('li.milestone');
  await expect(items.first()).toBeVisible();
  expect(await items.count()).toBeLessThan(50);
  const endIds = await page.getByTestId('customer-milestones').locator('li.milestone.end .id').allInnerTexts();
  const byId = new Map(policies.map((policy) => [policy.cidrId, policy]));
  const renewing = endIds.filter((id) => byId.get(id)?.capacityConfiguration?.autoRenewalEnabled === true).length;
  expect(renewing, 'ends of both kinds').toBeGreaterThan(0);
  expect(endIds.length - renewing, 'ends of both kinds').toBeGreaterThan(0);
  expect([without, withRenewal]).toEqual([endIds.length - renewing, renewing]);
  // Each end listed is tagged "Ends", as both columns now say.
  await expect(page.getByTestId('customer-milestones').locator('li.milestone.end .kind').first()).toHaveText('Ends');
});
