/**
 * Sign-out and the account manager's own data: kept unless they ask, removed
 * only after a second, explicit confirmation; the offline copy is left as it is.
 */
import type { Locator, Page } from '@playwright/test';
import type { CustomerBook } from '../../shared/ipc/customers.js';
import { openAccountMenu } from './fixtures.js';
import { ALEX, expect, expectAccessible, listFromOtherWindow, otherWindow, signInAs, test } from './support/capacity.js';

test.describe.configure({ timeout: 90_000 });

async function customerNames(handlers: ReturnType<typeof otherWindow>): Promise<string[]> {
  const book: CustomerBook = await handlers['customers.list'](undefined);
  return book.customers.map((c) => c.name);
}

async function openAccountMenuAndSignOut(page: Page): Promise<Locator> {
  await openAccountMenu(page);
  await page.getByTestId('sign-out').click();
  const dialog = page.getByTestId('sign-out-dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

async function backAtSignIn(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
}

test('signing out keeps the own data unless its removal is asked for and confirmed; the copy stays either way', async ({ openApp, app }) => {
  const page = await openApp();
  await signInAs(page, ALEX);
  const handlers = otherWindow(app);
  await handlers['customers.save']({ name: 'Northwind', externalIds: ['CUST-1001'], accounts: [], contact: '', notes: '' });
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  const policies = (await listFromOtherWindow(app, { offset: 0, limit: 5 })).total;

  // Kept by default: the box is not ticked, and a plain sign-out keeps the book.
  let dialog = await openAccountMenuAndSignOut(page);
  await expect(dialog.getByRole('checkbox', { name: /remove my own data/ })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await backAtSignIn(page);
  await signInAs(page, ALEX);
  expect(await customerNames(handlers)).toEqual(['Northwind']);

  // Asked for, then declined at the confirmation: nothing removed, still signed in.
  dialog = await openAccountMenuAndSignOut(page);
  await dialog.getByRole('checkbox', { name: /remove my own data/ }).check();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove your own data for good?' });
  await expect(confirm).toContainText(ALEX.username);
  await expect(confirm.getByRole('button', { name: 'Keep my data' })).toBeFocused();
  await expectAccessible(page, 'remove own data confirmation', '[data-testid="remove-own-data-confirm"]');
  await confirm.getByRole('button', { name: 'Keep my data' }).click();
  await expect(confirm).toBeHidden();
  await expect(dialog.getByRole('checkbox', { name: /remove my own data/ })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX.username);
  expect(await customerNames(handlers)).toEqual(['Northwind']);

  // Asked for and confirmed: removed; the copy is whole.
  dialog = await openAccountMenuAndSignOut(page);
  await dialog.getByRole('checkbox', { name: /remove my own data/ }).check();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await confirm.getByRole('button', { name: 'Remove my data and sign out' }).click();
  await backAtSignIn(page);
  await signInAs(page, ALEX);
  expect(await customerNames(handlers)).toEqual([]);
  expect((await listFromOtherWindow(app, { offset: 0, limit: 5 })).total).toBe(policies);
});
