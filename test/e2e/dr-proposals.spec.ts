/**
 * Day13 (branch ux14): suggested customers came from the linked accounts only until the DR view was used, with
 * no word why. The service lists no customer ids (a DR list is asked per id), so none can be read at the first
 * sync: the Customers view says so plainly, and an id opened in the DR view is suggested from then on.
 */
import { showCustomer } from './cyber-support.js';
import { expect, test } from './support/capacity.js';

test.describe.configure({ timeout: 90_000 });

test('no DR id to suggest is explained; one opened in the DR view is suggested', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  const customers = () => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();

  await customers();
  await expect(page.getByTestId('proposals').getByText('morgan-prod', { exact: true })).toBeVisible();
  // A suggestion's box sits just before its name (day13: the full-width box pushed the name to the row's far end).
  const section = await page.getByTestId('proposals').boundingBox();
  const box = await page.getByTestId('proposals').getByRole('checkbox', { name: /^morgan-prod/ }).boundingBox();
  const name = await page.getByTestId('proposals').getByText('morgan-prod', { exact: true }).boundingBox();
  expect(box!.width).toBeLessThan(40);
  expect(name!.x - section!.x).toBeLessThan(80);
  const why = page.getByTestId('no-dr-proposals');
  await expect(why).toContainText('the service does not list your customers’ ids');
  await why.getByRole('button', { name: 'Disaster recovery' }).click();
  await expect(page.getByLabel('External customer id')).toBeVisible();

  await showCustomer(page, 'CUST-1001');
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();
  await customers();
  await expect(page.getByTestId('proposals').getByText('CUST-1001', { exact: true })).toBeVisible();
  await expect(why).toHaveCount(0);
});
