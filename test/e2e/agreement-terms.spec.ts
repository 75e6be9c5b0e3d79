import { readFile } from 'node:fs/promises';
import { formatMoney } from '../../shared/format/money.js';
import { readCsv } from './cyber-support.js';
import { expect, expectAccessible, firstWithStatus, openList, test, testOnSharedApp } from './support/capacity.js';

/** Agreement terms kept with each environment: the currency on every amount, the fee schedule as rows. */

test('an environment’s currency and fee schedule are entered in its editor and kept', async ({ openApp }) => {
  const page = await openApp();
  await page.getByRole('button', { name: 'Manage environments…' }).click();
  const manager = page.getByRole('dialog', { name: 'Environments' });
  await expect(manager.getByTestId('profile-row').first().getByTestId('profile-terms')).toHaveText(
    'USD · cancellation fees: the sandbox’s stated rule',
  );

  await manager.getByLabel('Name').fill('Staging');
  await manager.getByLabel('Base URL').fill('https://staging.example.com');
  await manager.getByLabel('Currency').fill('XYZ');
  await manager.getByRole('button', { name: 'Add environment' }).click();
  await expect(manager.getByText('That is not an ISO 4217 currency code')).toBeVisible();
  await expect(manager.getByLabel('Currency')).toHaveAttribute('aria-invalid', 'true');

  await manager.getByLabel('Currency').fill('eur');
  await manager.getByRole('radio', { name: 'Enter the schedule' }).check();
  await manager.getByLabel('% of the price, row 1').fill('40');
  // A schedule without its after-launch rule is refused with words, and nothing typed is lost.
  await manager.getByRole('button', { name: 'Add environment' }).click();
  await expect(manager.getByRole('alert')).toHaveText('Enter the % of the price');
  await expect(manager.getByLabel('% of the price, row 1')).toHaveValue('40');

  await manager.getByRole('button', { name: 'Add a row' }).click();
  await manager.getByLabel('Days before launch, row 2').fill('14');
  await manager.getByLabel('% of the price, row 2').fill('5');
  await manager.getByLabel('After launch, % of the price').fill('100');
  await manager.getByLabel('times the share of the window still to run').uncheck();
  await expectAccessible(page, 'environment editor with terms', '[data-testid="profile-manager"]');
  await manager.getByRole('button', { name: 'Add environment' }).click();
  const staging = manager.getByTestId('profile-row').nth(1);
  await expect(staging.getByTestId('profile-terms')).toHaveText('EUR · cancellation fees: schedule entered');

  // Reopened from the settings file: the rows as entered, most days first.
  await page.reload();
  await page.getByRole('button', { name: 'Manage environments…' }).click();
  await manager.getByRole('button', { name: 'Edit Staging' }).click();
  await expect(manager.getByLabel('Currency')).toHaveValue('EUR');
  await expect(manager.getByLabel('Days before launch, row 1')).toHaveValue('14');
  await expect(manager.getByLabel('% of the price, row 1')).toHaveValue('5');
  await expect(manager.getByLabel('Days before launch, row 2')).toHaveValue('0');
  await expect(manager.getByLabel('% of the price, row 2')).toHaveValue('40');
  await expect(manager.getByLabel('After launch, % of the price')).toHaveValue('100');
  await expect(manager.getByLabel('times the share of the window still to run')).not.toBeChecked();
});

testOnSharedApp('every amount of the Sandbox environment names its currency, on screen and in the CSV', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const active = await firstWithStatus(app, 'ACTIVE');
  await openList(page);
  await expect(page.getByTestId('currency-note')).toHaveCount(0);
  await page.getByRole('searchbox').first().fill(active.cidrId);
  await expect(page.getByRole('row').filter({ hasText: active.cidrId })).toContainText(formatMoney(active.pricing.ourPrice, 'USD', 'en-US'));
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const rows = readCsv((await readFile((await (await downloading).path()) as string, 'utf8')).slice(1));
  const currency = rows[0]?.indexOf('Currency') ?? -1;
  expect(rows[0]?.[currency - 1]).toBe('Our price');
  expect(rows.slice(1).map((row) => [row[0], row[currency - 1], row[currency]])).toEqual([[active.cidrId, String(active.pricing.ourPrice), 'USD']]);
});
