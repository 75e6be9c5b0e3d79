/**
 * Issue 26 (branch cust16, item 6): the service states a card and a bank-transfer processing fee for each policy, not
 * which one the customer pays, so the customer page showed both. "Pays by" in the book (the customer form) makes it
 * show the one fee that customer pays. At 1,280 and 1,680 px.
 */
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CustomerPage } from '../../shared/ipc/customers.js';
import { expect, listFromOtherWindow, signInAs, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });

for (const width of [1280, 1680]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a customer who pays by bank transfer is shown the bank fee alone', async ({ app, openApp }) => {
      const page = await openApp();
      await signInAs(page);
      await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 60_000 });
      const account = ((await listFromOtherWindow(app, { status: 'ACTIVE', limit: 50 })).rows[0] as CapacityPolicy).cspAccountName;

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
      await page.getByTestId('new-customer').click();
      const form = page.getByTestId('customer-form');
      await form.getByLabel('Name').fill('Wide World Importers');
      await form.getByLabel('Linked accounts').fill(account);
      await form.getByLabel('Pays by').selectOption({ label: 'Bank transfer' });
      await form.getByRole('button', { name: 'Save customer' }).click();
      await expect(form).toBeHidden();
      const customer = (await app.services.handlers['customers.list'](undefined)).customers.find((c) => c.name === 'Wide World Importers')!;
      expect(customer.paysBy).toBe('bank');
      const { totals } = (await app.services.handlers['customers.page']({ key: customer.key })) as CustomerPage;
      // The two ways differ for this account's policies: the page has to pick one.
      expect(totals.processingFeesByBank).not.toBe(totals.processingFeesByCard);

      await page.getByTestId('customer-book').getByRole('button', { name: 'Wide World Importers', exact: true }).click();
      const tile = page.getByTestId('customer-page').getByTestId('total-fees');
      const amount = (value: number) =>
        page.evaluate((n) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', currencyDisplay: 'code', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n), value);
      await expect(tile.getByTestId('figure-value')).toHaveText(await amount(totals.processingFeesByBank + totals.cancellationFees));
      await expect(tile).toContainText('they pay by bank transfer, as your book says');
      await expect(tile).not.toContainText('if they pay by card');

      // The form shows it again when edited.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
      await page.getByRole('button', { name: 'Edit Wide World Importers', exact: true }).click();
      await expect(form.getByLabel('Pays by')).toHaveValue('bank');
      const [scrollWidth, clientWidth] = await page.locator('body').evaluate((body) => [body.ownerDocument.scrollingElement!.scrollWidth, body.ownerDocument.scrollingElement!.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth!);
    });
  });
}
