/**
 * Review17 (against day17's "the beginning of one customer's name opens their DR policies"): an external customer id
 * typed in the DR view is that id, even when it is the beginning of one book customer's name. A customer kept from a
 * DR-id proposal is named by its id (shared/customers/proposals.ts), so with ids of different lengths ("CUST-1001",
 * "CUST-10010") an id typed, not yet in the book, opened the other customer's DR policies.
 */
import { ALEX, expect, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });
test.use({ appOptions: { refreshReplicaAtSignIn: false } });

const [FIRST_ID] = ALEX.customers.map((c) => c.cidExt) as [string];

test('an id typed in the DR view opens that id, not a customer whose name begins with it', async ({ app, openSignedIn }) => {
  const page = await openSignedIn();
  // As a DR-id proposal is kept: named by its id, which begins with the id typed below.
  const longer = `${FIRST_ID}0`;
  await app.services.handlers['customers.save']({ name: longer, externalIds: [longer], accounts: [], contact: '', notes: '' });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
  const field = page.getByLabel('Customer name or external customer id');
  await field.fill(FIRST_ID);
  await field.press('Enter');
  // The id's own DR policies (the sandbox links it to this user), not "No customer “CUST-10010” is linked to you".
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();
  await expect(page.getByTestId('unknown-customer')).toHaveCount(0);
});
