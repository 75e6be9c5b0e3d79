import { readFile } from 'node:fs/promises';
import { ALEX, SandboxClient, addFault, goTo, showCustomer, readCsv } from './cyber-support.js';
import { expect, test, testOnSharedApp } from './fixtures.js';

const CUSTOMER = ALEX.customers[0]!.cidExt;

test('the DR list exports every matching policy, filters and sort applied, as a CSV download', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await showCustomer(page, CUSTOMER);
  await page.getByLabel('Status', { exact: true }).selectOption('ACTIVE');
  await page.getByLabel('Order').selectOption('asc');
  // One row per page, so the export has to go beyond the page on screen.
  await page.getByLabel('Rows per page').selectOption('10');
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();

  const sandbox = await SandboxClient.signIn(app);
  const expected = await sandbox.allCyber(CUSTOMER, { status: 'ACTIVE', sortOrder: 'asc' });
  expect(expected.length).toBeGreaterThan(0);

  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`DR policies ${CUSTOMER} active.csv`);
  const bytes = await readFile((await download.path()) as string);
  // UTF-8 with a byte-order mark, so spreadsheet apps read names right.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = readCsv(bytes.toString('utf8').slice(1));
  expect(rows[0]).toEqual(['Policy ID', 'Policy name', 'Status', 'Customer', 'Customer name', 'Primary region', 'Created (UTC)', 'DR termination triggered']);
  expect(rows.slice(1)).toEqual(
    expected.map((item) => [
      item.cidrId,
      item.policyName,
      item.policyStatus,
      item.customerId ?? CUSTOMER,
      // No customer of the book holds this id in this test: the name column is empty.
      '',
      item.regionCode ?? '',
      item.createdDate,
      item.terminationTriggered ? 'yes' : 'no',
    ]),
  );
  const toast = page.getByTestId('toast').filter({ hasText: 'Exported' });
  await expect(toast).toContainText(`Exported ${expected.length} rows`);
  await expect(toast).toContainText(`Downloaded as DR policies ${CUSTOMER} active.csv`);

  // A failure while collecting the rows is said, and nothing is downloaded.
  await addFault(app, { pathPrefix: '/external/api/v1/policies/cyber/', errorRate: 1, errorStatus: 500 });
  let downloads = 0;
  page.on('download', () => (downloads += 1));
  await page.getByTestId('export-csv').click();
  const failure = page.locator('[data-testid="toast"][data-tone="danger"]');
  await expect(failure).toContainText('The export failed');
  await expect(failure).toContainText('An unexpected error occurred');
  await expect(page.getByTestId('export-csv')).toBeEnabled();
  expect(downloads).toBe(0);
});

testOnSharedApp('linked accounts export the rows shown (search applied) in the order shown', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await goTo(page, 'Linked accounts');
  await page.getByLabel('Search').fill('linked');
  await page.getByTestId('sort-linkedAt').click();
  const shown = ALEX.linkedAccounts
    .filter((a) => a.status === 'LINKED')
    .sort((a, b) => Date.parse(b.linkedAt) - Date.parse(a.linkedAt));
  await expect(page.getByTestId('account-row')).toHaveCount(shown.length);

  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Linked accounts matching linked.csv');
  const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
  expect(readCsv(text)).toEqual([
    ['Account ID', 'Name', 'Provider', 'Status', 'Linked at (UTC)'],
    ...shown.map((a) => [a.accountId, a.accountName, a.provider, a.status, a.linkedAt]),
  ]);
});
