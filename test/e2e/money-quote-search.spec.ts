import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { formatFraction, formatMoney } from '../../shared/format/money.js';
import { expect, expectAccessible, navTo, openDetail, otherWindow, policiesWithStatus, test } from './support/capacity.js';

/** A quote a customer can read from the search panel, and a search that leads somewhere when nothing fits. */

const run = promisify(execFile);

async function openSearch(page: Page): Promise<void> {
  await navTo(page, 'Search & purchase');
  await expect(page.getByTestId('ready-count')).toBeVisible();
}

test('ready policies picked in the search panel become a PDF quote with their own numbers, and e-mail text', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  await openSearch(page);
  const panel = page.getByTestId('ready-panel');
  const rows = panel.getByTestId('ready-policy');
  const ids = [(await rows.nth(0).getAttribute('data-cidr')) as string, (await rows.nth(1).getAttribute('data-cidr')) as string];
  for (const id of ids) await panel.getByRole('checkbox', { name: `Add ${id} to a quote` }).check();
  await panel.getByRole('button', { name: 'Quote 2 for a customer…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Quote for a customer' });
  await expect(dialog.getByLabel('Customer name')).toBeFocused();
  // Nothing typed: said at the field, nothing made.
  await dialog.getByRole('button', { name: 'Save PDF' }).click();
  await expect(dialog.getByLabel('Customer name')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Customer name').fill('Northwind Traders');
  await dialog.getByLabel('Paper').selectOption('Letter');
  await expectAccessible(page, 'quote dialog', '[data-testid="quote-dialog"]');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Save PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Quote Northwind Traders \d{4}-\d{2}-\d{2}\.pdf$/);
  const path = (await download.path()) as string;
  expect((await readFile(path)).subarray(0, 5).toString()).toBe('%PDF-');
  const { stdout: info } = await run('pdfinfo', [path]);
  expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
  const text = (await run('pdftotext', [path, '-'])).stdout.replace(/\s+/g, ' ');
  const handlers = otherWindow(app);
  for (const id of ids) {
    const pricing = (await handlers['capacity.describe']({ cidrId: id })).pricing!;
    const money = (n: number) => formatMoney(n, 'USD', 'en-US').replace(/\s/g, ' ');
    expect(text).toContain(`(${id})`);
    expect(text).toContain(`Our price: ${money(pricing.ourPrice)}`);
    expect(text).toContain(`Provider price: ${money(pricing.cspProviderPrice)}`);
    expect(text).toContain(`Savings: ${money(pricing.savings)} (${formatFraction(pricing.savingsPercentage, 'en-US')})`);
  }
  await expect(dialog.getByTestId('quote-done')).toContainText('recorded in each policy’s activity');

  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(dialog.getByTestId('quote-done')).toContainText('copied as e-mail text');
  const clipboard = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(clipboard).toMatch(/^Quote for Northwind Traders\n/);
  for (const id of ids) expect(clipboard).toContain(`(${id})`);

  const activity = await handlers['activity.list']({ policyKind: 'capacity', policyId: ids[0]! });
  expect(activity.entries[0]?.action).toBe('quote');
});

test('when no ready policy fits the search it says so, warns before buying a window that is not free, and copies a quote request', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  const [policy] = await policiesWithStatus(app, 'READY_FOR_PURCHASE');
  await openSearch(page);
  const form = page.getByTestId('search-form');
  await form.getByLabel('UTC offset (hours)').fill('0');
  await form.getByLabel('Instance type').fill(policy!.policyInstance.instanceType);
  await form.getByLabel('Platform').fill(policy!.policyInstance.platformCode);
  await form.getByLabel('Availability zone').fill(policy!.cspRegion.availabilityZoneId);
  // A window far after every ready policy's: none can lie inside its free runs.
  await form.getByLabel('Start date').fill('2028-06-01');
  await form.getByLabel('End date').fill('2028-06-30');
  await form.getByRole('button', { name: 'Search availability' }).click();
  await expect(page.getByTestId('offering').first()).toBeVisible();

  const panel = page.getByTestId('ready-panel');
  await expect(panel.getByTestId('ready-narrowed')).toContainText('Only those matching your search', { timeout: 30_000 });
  const noneFits = panel.getByTestId('none-fits');
  await expect(noneFits).toContainText('fits a free run of your search');
  await expect(panel).not.toContainText('No policy is ready for purchase right now');
  const row = panel.locator(`[data-testid="ready-policy"][data-cidr="${policy!.cidrId}"]`);
  await expect(row.getByTestId('fit-warning')).toHaveText('Not available: no free run of your search covers its window');
  await expect(row).not.toContainText('Fits a free run');

  await row.getByRole('button', { name: `Purchase ${policy!.cidrId}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  await expect(dialog.getByTestId('purchase-availability')).toHaveText('Not available: no free run of your search covers its window.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await noneFits.getByTestId('copy-quote-request').click();
  const clipboard = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(clipboard).toContain(`Instance type: ${policy!.policyInstance.instanceType}`);
  expect(clipboard).toContain(`Availability zone: ${policy!.cspRegion.availabilityZoneId}`);
  expect(clipboard).toContain('Window: 06/01/2028 to 06/30/2028 (dates MM/dd/yyyy at UTC)');
  expect(await (await import('./support/capacity.js')).requestCount(app, 'purchaseCapacity')).toBe(0);
});

test('a ready policy’s detail makes a quote too, copied as e-mail text with the currency on every amount', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  const [policy] = await policiesWithStatus(app, 'READY_FOR_PURCHASE');
  await openDetail(page, policy!.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Quote for a customer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Quote for a customer' });
  await dialog.getByLabel('Customer name').fill('__proto__');
  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(dialog.getByTestId('quote-done')).toContainText('copied as e-mail text');
  const clipboard = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(clipboard).toMatch(/^Quote for __proto__\n/);
  expect(clipboard).toContain(`Our price: ${formatMoney(policy!.pricing.ourPrice, 'USD', 'en-US')}`);
  // Every amount says its currency, wherever the text puts it (a line's price and savings, its fees, the totals by how
  // the customer pays, the savings against the provider's price): each number written as money comes after "USD".
  const amount = /\d{1,3}(?:,\d{3})*\.\d{2}(?![\d%])/g;
  const amounts = [...clipboard.matchAll(new RegExp(`(?<![\\d.,])${amount.source}`, 'g'))].map((match) => match.index);
  // formatMoney puts a no-break space between the code and the number (Intl's): `\s` holds it.
  const said = [...clipboard.matchAll(new RegExp(`USD\\s${amount.source}`, 'g'))].map((match) => match.index + 'USD '.length);
  // A line's price, provider price, savings and (when stated) two fees; two totals (card, bank) of three amounts each;
  // the savings line's two: 13 with both fees stated.
  expect(amounts.length).toBeGreaterThanOrEqual(10);
  expect(said).toEqual(amounts);
});
