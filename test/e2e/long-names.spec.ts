/**
 * Issue 26 (day13, branch ux14): a 500-character customer name took 13 lines of the book and a whole toast.
 * Where a name is a label (a book row, the customer page's title, a toast, a dialog's title) it is shortened
 * with an ellipsis, the whole name kept in its title and in the page's text (selectable); where it is the thing
 * itself (the edit field, the book's CSV) it is whole. A `__proto__` name stays an ordinary name.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/capacity.js';

test.describe.configure({ timeout: 90_000 });
test.use({ viewport: { width: 1280, height: 800 }, appOptions: { refreshReplicaAtSignIn: false } });

const LONG = `Contoso Pharmaceuticals Holdings ${'X'.repeat(500 - 33)}`;

/** How many lines of its own line height a box takes. */
async function linesOf(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const style = el.ownerDocument.defaultView!.getComputedStyle(el);
    const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
    return Math.round(el.getBoundingClientRect().height / lineHeight);
  });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const [scrollWidth, clientWidth] = await page.locator('body').evaluate((body) => [body.ownerDocument.scrollingElement!.scrollWidth, body.ownerDocument.scrollingElement!.clientWidth]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth!);
}

test('a 500-character name is cut where it is a label and whole where it is the name itself', async ({ app, openSignedIn }) => {
  expect(LONG).toHaveLength(500);
  const page = await openSignedIn();
  await app.services.handlers['customers.save']({ name: '__proto__', externalIds: ['CUST-1002'], accounts: [], contact: '', notes: '' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
  await expect(page.getByTestId('customer-book').getByRole('button', { name: '__proto__', exact: true })).toBeVisible();

  // Saved through the form: the toast says so in a sentence, the name cut.
  await page.getByTestId('new-customer').click();
  const form = page.getByTestId('customer-form');
  await form.getByLabel('Name').fill(LONG);
  await form.getByLabel('External customer ids').fill('CUST-1001');
  await form.getByRole('button', { name: 'Save customer' }).click();
  await expect(form).toBeHidden();
  const toast = page.getByTestId('toast').filter({ hasText: 'is in your book' });
  await expect(toast).toBeVisible();
  const toastText = (await toast.innerText()).trim();
  expect(toastText.length, toastText).toBeLessThan(120);
  expect(toastText).toContain('Contoso Pharmaceuticals Holdings XXX');
  expect(toastText).toContain('… is in your book');

  // The book's row: at most two lines, the whole name in its title and its text.
  const row = page.getByTestId('customer-book').getByRole('button', { name: LONG, exact: true });
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('title', LONG);
  expect(await linesOf(row.locator('.clamp-2'))).toBeLessThanOrEqual(2);
  expect(await row.textContent()).toBe(LONG);
  await expect(page.getByTestId('customer-book').getByRole('button', { name: '__proto__', exact: true })).toBeVisible();
  await noSidewaysScroll(page);

  // The edit field holds it whole; the form's title is cut.
  await page.getByRole('button', { name: `Edit ${LONG}`, exact: true }).click();
  await expect(form.getByLabel('Name')).toHaveValue(LONG);
  const formTitle = await form.getAttribute('aria-label');
  expect(formTitle!.length).toBeLessThan(80);
  await form.getByRole('button', { name: 'Cancel' }).click();

  // The book (what its CSV is made of) holds it whole.
  const exported = await app.services.handlers['customers.list'](undefined);
  expect(exported.customers.map((c) => c.name)).toContain(LONG);

  // The customer page's title: two lines at most, the whole name in its title and selectable text.
  await row.click();
  const title = page.locator('#customer-title');
  await expect(title).toHaveAttribute('title', LONG);
  expect(await title.textContent()).toBe(LONG);
  expect(await linesOf(title)).toBeLessThanOrEqual(2);
  expect(await title.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).userSelect)).not.toBe('none');
  await title.selectText();
  expect(await title.evaluate((el) => el.ownerDocument.getSelection()?.toString())).toBe(LONG);
  await noSidewaysScroll(page);
});
