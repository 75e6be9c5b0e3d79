/**
 * Issue 26 (branch cust16, item 3): the customer page's DR count read each DR id's first page of 100 and said
 * "At least" beyond it. A customer id with 120 DR policies (the sandbox at scale 3,000): the page reads the further
 * pages and says the exact count of active ones, live; each page it read is kept in the copy, so working offline
 * the page counts the same from the copy's kept list.
 */
import { SandboxClient } from './cyber-support.js';
import { ALEX, expect, scaledTest, signInAs } from './support/capacity.js';

const test = scaledTest(3000);
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 900 } });

const [CUSTOMER_ID] = ALEX.customers.map((c) => c.cidExt) as [string];

test('the DR count is exact past the first page of 100, live and from the copy offline', async ({ app, openApp }) => {
  const sandbox = await SandboxClient.signIn(app);
  const all = await sandbox.allCyber(CUSTOMER_ID);
  const active = all.filter((item) => item.policyStatus === 'ACTIVE').length;
  const onFirstPage = all.slice(0, 100).filter((item) => item.policyStatus === 'ACTIVE').length;
  expect(all.length, 'a DR id with more than one page').toBeGreaterThan(100);
  expect(active, 'active policies beyond the first page').toBeGreaterThan(onFirstPage);

  const page = await openApp();
  await signInAs(page);
  const statusBar = page.getByRole('contentinfo', { name: 'Local copy' });
  await expect(statusBar.getByRole('button', { name: 'Work offline' })).toBeVisible({ timeout: 60_000 });
  await app.services.handlers['customers.save']({ name: 'Northwind', externalIds: [CUSTOMER_ID], accounts: [], contact: '', notes: '' });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
  await page.getByTestId('customer-book').getByRole('button', { name: 'Northwind', exact: true }).click();
  const meaning = page.getByTestId('customer-page').getByTestId('total-active').locator('.meaning');
  const exact = `${active} active DR policies in their DR lists below (not in the figure).`;
  await expect(meaning).toContainText(exact, { timeout: 30_000 });
  await expect(meaning).not.toContainText('At least');
  await expect(page.getByTestId('customer-dr')).toContainText(`100 of ${all.length} shown`);

  // Offline: the copy keeps every page the page read, so it counts the same.
  await statusBar.getByRole('button', { name: 'Work offline' }).click();
  await expect(statusBar.getByRole('button', { name: 'Go back online' })).toBeVisible();
  await page.getByTestId('customer-page').getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(meaning).toContainText(exact, { timeout: 30_000 });
  await expect(meaning).not.toContainText('At least');
  await expect(page.getByTestId('customer-dr')).toContainText(`100 of ${all.length} shown`);
});
