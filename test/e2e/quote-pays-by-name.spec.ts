import type { Page } from '@playwright/test';
import { formatMoney } from '../../shared/format/money.js';
import { expect, openDetail, otherWindow, policiesWithStatus, test } from './support/capacity.js';

/**
 * review18, against money18: the quote's "Pays by" comes from the book's customer named, and goes with them. With
 * Northwind (card, in the book) and then "Contoso Ltd" typed (not in the book), the quote told Contoso that the card
 * total was what they would pay ("Processing fee (card, as you pay)"): Northwind's way of paying, kept for a customer
 * the book says nothing of.
 */
test.describe.configure({ timeout: 120_000 });

const clipboardText = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

test('a customer typed who is not in the book is quoted both totals, not the way the book customer named before pays (review18)', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  const ready = await policiesWithStatus(app, 'READY_FOR_PURCHASE');
  const policy = ready.find((p) => p.cspAccountName && p.pricing.creditCardProcessingFee !== null && p.pricing.bankAccountProcessingFee !== null);
  if (!policy) throw new Error('the seed has no ready policy of an account stating both processing fees');
  await otherWindow(app)['customers.save']({ name: 'Northwind Traders', externalIds: [], accounts: [policy.cspAccountName], contact: '', notes: '', paysBy: 'card' });
  const money = (n: number) => formatMoney(n, 'USD', 'en-US');
  const { ourPrice, creditCardProcessingFee: card, bankAccountProcessingFee: bank } = policy.pricing;
  const plus = (fee: number) => money((Math.round(ourPrice * 100) + Math.round(fee * 100)) / 100);

  await openDetail(page, policy.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Quote for a customer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Quote for a customer' });
  await expect(dialog.getByLabel('Customer name')).toHaveValue('Northwind Traders');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('card');

  // Another customer, not in the book: how they pay is not known.
  await dialog.getByLabel('Customer name').fill('Contoso Ltd');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(dialog.getByTestId('quote-done')).toContainText('copied as e-mail text');
  const text = await clipboardText(page);
  expect(text).toMatch(/^Quote for Contoso Ltd\n/);
  expect(text).not.toContain('as you pay');
  expect(text).toContain(`- paying by card: ${plus(card!)}`);
  expect(text).toContain(`- paying by bank transfer: ${plus(bank!)}`);

  // Northwind named again: their way of paying again; a way the person picks for Contoso stays theirs.
  await dialog.getByLabel('Customer name').fill('Northwind Traders');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('card');
  await dialog.getByLabel('Customer name').fill('Contoso Ltd');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('');
  await dialog.getByLabel('Pays by').selectOption('bank');
  await dialog.getByLabel('Customer name').fill('Contoso Limited');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('bank');
});
