/**
 * day17: in the DR view, the beginning of a customer's name ("north" for Northwind Traders) was taken as an external
 * customer id and answered "No customer “north” is linked to you", of a customer in the book. The beginning of the
 * name of one customer alone now opens that customer's first id; a beginning several names share is still taken as
 * an id (the field's suggestions offer each of them), and an id typed is an id.
 */
import { ALEX, expect, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });
test.use({ appOptions: { refreshReplicaAtSignIn: false } });

const [FIRST_ID, SECOND_ID] = ALEX.customers.map((c) => c.cidExt) as [string, string];

test('the beginning of one customer’s name opens their DR policies; one that several names share does not pick for the person', async ({ app, openSignedIn }) => {
  const page = await openSignedIn();
  const save = app.services.handlers['customers.save'];
  await save({ name: 'Northwind Traders', externalIds: [FIRST_ID], accounts: [], contact: '', notes: '' });
  await save({ name: 'Northpole Logistics', externalIds: [SECOND_ID], accounts: [], contact: '', notes: '' });
  await save({ name: 'Contoso', externalIds: [], accounts: [], contact: '', notes: '' });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
  const field = page.getByLabel('Customer name or external customer id');
  const ownerIds = page.getByTestId('customer-ids');

  // One name begins so (any case): its customer's first id is shown, the list its DR policies.
  for (const [typed, id] of [
    ['northw', FIRST_ID],
    ['Northp', SECOND_ID],
  ] as const) {
    await field.fill(typed);
    await field.press('Enter');
    await expect(ownerIds.getByRole('button', { name: id, pressed: true }), typed).toBeVisible();
    await expect(page.getByTestId('cyber-row').first()).toBeVisible();
  }

  // Two names begin so: nothing is picked for the person; it is taken as an id, as before.
  await field.fill('North');
  await field.press('Enter');
  await expect(page.getByTestId('unknown-customer')).toContainText('No customer “North” is linked to you.');
  // A customer without DR ids is not picked either ("Contoso" begins no DR customer's name).
  await field.fill('Cont');
  await field.press('Enter');
  await expect(page.getByTestId('unknown-customer')).toContainText('No customer “Cont” is linked to you.');
});
