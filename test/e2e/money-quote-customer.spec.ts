import type { Page } from '@playwright/test';
import { formatMoney } from '../../shared/format/money.js';
import { expect, openDetail, otherWindow, policiesWithStatus, test } from './support/capacity.js';

/** Quotes from the customer's side: the book's customer is the quote's, and a customer page quotes their ready policies. */

test.describe.configure({ timeout: 120_000 });

const clipboardText = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

test('a quote starts with the book’s customer of the policy, and a customer page quotes their ready policies for them', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Signed in first: the policies and the book are the signed-in user's.
  const page = await openSignedIn();
  const ready = await policiesWithStatus(app, 'READY_FOR_PURCHASE');
  // An account with two ready policies at least: the page's quote can leave one out (money14).
  const policy = ready.find((p) => p.cspAccountName && ready.filter((q) => q.cspAccountName === p.cspAccountName).length >= 2);
  if (!policy) throw new Error('the seed has no account with two ready policies');
  await otherWindow(app)['customers.save']({ name: 'Northwind Traders', externalIds: [], accounts: [policy.cspAccountName], contact: '', notes: '' });

  await openDetail(page, policy.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Quote for a customer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Quote for a customer' });
  await expect(dialog.getByLabel('Customer name')).toHaveValue('Northwind Traders');
  // Another customer by name: what is typed is the quote's.
  await dialog.getByLabel('Customer name').fill('Contoso');
  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(dialog.getByTestId('quote-done')).toContainText('copied as e-mail text');
  expect(await clipboardText(page)).toMatch(/^Quote for Contoso\n/);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
  await page.getByTestId('customer-book').getByRole('button', { name: /^Northwind/ }).click();
  // The page's first rows stand in until the newest read of their policies replaces them (CI: 13 then 15 ready).
  await expect(page.getByTestId('customer-capacity')).toHaveAttribute('aria-busy', 'false');
  const theirs = page.getByTestId('customer-capacity').locator('tr[data-status="READY_FOR_PURCHASE"]');
  await expect(theirs.first()).toBeVisible();
  const all = await theirs.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-cidr-id') ?? ''));
  expect(all.length).toBeGreaterThanOrEqual(2);
  // Every ready policy ticked at first; one unticked is left out of the quote (money14: the quote took them all).
  const button = page.getByTestId('quote-customer-ready');
  await expect(button).toHaveText(`Quote their ${all.length} ready policies…`);
  for (const id of all) await expect(page.getByRole('checkbox', { name: `Quote ${id}` })).toBeChecked();
  const [left, ...ids] = all as [string, ...string[]];
  await page.getByRole('checkbox', { name: `Quote ${left}` }).uncheck();
  await expect(button).toHaveText(`Quote ${ids.length} of their ${all.length} ready policies…`);
  await button.click();
  const fromPage = page.getByRole('dialog', { name: 'Quote for a customer' });
  await expect(fromPage.getByLabel('Customer name')).toHaveValue('Northwind Traders');
  for (const id of ids) await expect(fromPage).toContainText(id);
  await expect(fromPage).not.toContainText(left);
  await fromPage.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(fromPage.getByTestId('quote-done')).toContainText('copied as e-mail text');
  const text = await clipboardText(page);
  expect(text).toMatch(/^Quote for Northwind/);
  for (const id of ids) expect(text).toContain(id);
  expect(text).not.toContain(left);
});

/**
 * A ready policy of an account stating both processing fees, its account in the book as Northwind Traders who pays by
 * card, and its quote dialog open from the policy's detail; with the totals the quote should state.
 */
async function quoteForCardCustomer(page: Page, app: Parameters<typeof policiesWithStatus>[0]) {
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
  return { dialog, money, plus, ourPrice, card: card!, bank: bank! };
}

test('a quote for a customer the book says pays by card totals our price and the card fee, and both totals when not known (money18)', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  const { dialog, money, plus, ourPrice, card, bank } = await quoteForCardCustomer(page, app);
  // The book's "Pays by" of the customer named.
  await expect(dialog.getByLabel('Pays by')).toHaveValue('card');
  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(dialog.getByTestId('quote-done')).toContainText('copied as e-mail text');
  const byCard = await clipboardText(page);
  expect(byCard).toContain(`Total: ${plus(card)} (our price ${money(ourPrice)} + card processing fees ${money(card)})`);
  expect(byCard).toContain(`Processing fee (card, as you pay): ${money(card)}`);
  expect(byCard).not.toContain('bank transfer');

  // Not known: both totals, as alternatives.
  await dialog.getByLabel('Pays by').selectOption('');
  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect.poll(() => clipboardText(page)).toContain('Total, by how you pay (one of these applies):');
  const either = await clipboardText(page);
  expect(either).toContain(`- paying by card: ${plus(card)}`);
  expect(either).toContain(`- paying by bank transfer: ${plus(bank)}`);
});

/**
 * review18, against money18: the quote's "Pays by" comes from the book's customer named, and goes with them. With
 * Northwind (card, in the book) and then "Contoso Ltd" typed (not in the book), the quote told Contoso that the card
 * total was what they would pay ("Processing fee (card, as you pay)"): Northwind's way of paying, kept for a customer
 * the book says nothing of.
 */
test('a customer typed who is not in the book is quoted both totals, not the way the book customer named before pays (review18)', async ({ openSignedIn, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  const { dialog, plus, card, bank } = await quoteForCardCustomer(page, app);
  await expect(dialog.getByLabel('Pays by')).toHaveValue('card');

  // Another customer, not in the book: how they pay is not known.
  await dialog.getByLabel('Customer name').fill('Contoso Ltd');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Copy e-mail text' }).click();
  await expect(dialog.getByTestId('quote-done')).toContainText('copied as e-mail text');
  const text = await clipboardText(page);
  expect(text).toMatch(/^Quote for Contoso Ltd\n/);
  expect(text).not.toContain('as you pay');
  expect(text).toContain(`- paying by card: ${plus(card)}`);
  expect(text).toContain(`- paying by bank transfer: ${plus(bank)}`);

  // Northwind named again: their way of paying again; a way the person picks for Contoso stays theirs.
  await dialog.getByLabel('Customer name').fill('Northwind Traders');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('card');
  await dialog.getByLabel('Customer name').fill('Contoso Ltd');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('');
  await dialog.getByLabel('Pays by').selectOption('bank');
  await dialog.getByLabel('Customer name').fill('Contoso Limited');
  await expect(dialog.getByLabel('Pays by')).toHaveValue('bank');
});
