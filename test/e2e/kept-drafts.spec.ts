import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { openAccountMenu } from './fixtures.js';
import { expect, firstWithStatus, navTo, openDetail, signInAs, test } from './support/capacity.js';

/**
 * Issue 17 item 13: what was typed and not saved survives a reload of the
 * window, for the user who typed it and no one else.
 */
const [ALEX, JORDAN] = SANDBOX_USERS;

test('the search form and an open configuration keep their unsaved input across a reload', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await navTo(page, 'Search & purchase');
  const search = page.getByTestId('search-form');
  await search.getByLabel('Instance type').fill('m5.large');
  await search.getByLabel('Availability zone').fill('use1-az2');

  const policy = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
  await openDetail(page, policy.cidrId);
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  const form = page.getByTestId('configure-form');
  await form.getByLabel('VPC').fill('vpc-0fa17ed5');

  await page.reload();
  await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX!.username);
  await openDetail(page, policy.cidrId);
  // The form is open again, with the edit and without a second click; leaving it still asks first.
  const again = page.getByTestId('configure-form');
  await expect(again.getByLabel('VPC')).toHaveValue('vpc-0fa17ed5');
  // Discarded, it is not offered again after the next reload.
  await again.getByRole('button', { name: 'Discard' }).click();
  await navTo(page, 'Search & purchase');
  await expect(search.getByLabel('Instance type')).toHaveValue('m5.large');
  await expect(search.getByLabel('Availability zone')).toHaveValue('use1-az2');

  await page.reload();
  await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX!.username);
  await openDetail(page, policy.cidrId);
  await expect(page.getByTestId('configure-form')).toHaveCount(0);
});

test.describe('with two users on one window', () => {
  // Its own keychain: signing out here must not remove the token that parallel tests keep in the real one.
  test.use({ appOptions: { secrets: new MemorySecretStore('signing out here must not touch the real keychain') } });

  test("another user signing in after a reload never sees the first user's unsaved input", async ({ openSignedIn }) => {
    const page = await openSignedIn();
    await navTo(page, 'Search & purchase');
    await page.getByTestId('search-form').getByLabel('Instance type').fill('p3.2xlarge');
    await openAccountMenu(page);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
    await page.reload();

    await signInAs(page, JORDAN);
    await navTo(page, 'Search & purchase');
    await expect(page.getByTestId('search-form').getByLabel('Instance type')).toHaveValue('');
  });
});
