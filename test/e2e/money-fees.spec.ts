import { readFile } from 'node:fs/promises';
import { parseCancellationFee } from '../../shared/api/contract-choices.js';
import { formatMoney } from '../../shared/format/money.js';
import { readCsv } from './cyber-support.js';
import { expect, firstWithStatus, navTo, openDetail, openList, test, typeCancelConfirmation } from './support/capacity.js';

/** The fee the service stated after a cancel, beyond the detail: the table's Fee column, its CSV and the overview's fees this month. */

test.describe.configure({ timeout: 120_000 });

test('after a cancel the Fee column, the CSV and the overview show the fee the service stated', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const policy = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');

  await openDetail(page, policy.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${policy.policyName}?` });
  await typeCancelConfirmation(dialog, policy.cidrId);
  await dialog.getByRole('button', { name: 'Cancel policy' }).click();
  const result = page.getByRole('alertdialog', { name: 'Policy canceled' });
  const stated = parseCancellationFee((await result.locator('.service-message').textContent()) ?? '');
  expect(stated).not.toBeNull();
  const shown = formatMoney(stated ?? Number.NaN, 'USD', 'en-US');
  await result.getByRole('button', { name: 'Done' }).click();

  await openList(page);
  const table = page.getByTestId('capacity-table');
  // Hidden at first; one click in the Columns chooser shows it.
  await expect(table.getByRole('columnheader', { name: /Cancellation fee/ })).toHaveCount(0);
  await page.getByTestId('column-chooser').getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Cancellation fee stated by the service' }).check();
  await page.getByRole('heading', { name: 'Capacity policies' }).click();
  await expect(table.getByRole('columnheader', { name: /Cancellation fee/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search policies' }).fill(policy.cidrId);
  await expect(table.getByRole('row').filter({ hasText: policy.cidrId })).toContainText(shown);

  // The CSV carries the column as a plain amount, to the cent (save-sheet writes every amount with two decimals).
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const rows = readCsv((await readFile((await (await downloading).path()) as string, 'utf8')).slice(1));
  const fee = rows[0]?.indexOf('Cancellation fee') ?? -1;
  expect(fee).toBeGreaterThan(0);
  expect(rows.slice(1).map((row) => [row[0], row[fee]])).toEqual([[policy.cidrId, (stated ?? Number.NaN).toFixed(2)]]);

  // This calendar month's stated fees: this cancel's only.
  await navTo(page, 'Overview');
  await expect(page.getByTestId('tile-fees').getByTestId('figure-value')).toHaveText(shown);
  await expect(page.getByTestId('tile-fees')).toContainText('for the 1 policy this app canceled this calendar month');
});
