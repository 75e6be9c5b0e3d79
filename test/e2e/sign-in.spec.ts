import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { workerKeychainService } from '../support/worker-keychain.js';
import { loadKeytar } from '../../electron/services/secrets/keytar-secret-store.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { KEYCHAIN_REQUIRED } from '../support/keychain.js';
import { expect, openAccountMenu, signIn, test } from './fixtures.js';

const [alex, jordan] = SANDBOX_USERS as [(typeof SANDBOX_USERS)[number], (typeof SANDBOX_USERS)[number]];

test('a sandbox user signs in through the UI and sees their linked accounts', async ({ openApp, app }) => {
  const page = await openApp();
  await expect(page.getByLabel('Environment')).toHaveValue('sandbox');
  await signIn(page, alex.username, alex.password);

  await expect(page.getByTestId('signed-in-user')).toHaveText(alex.username);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Linked accounts' }).click();
  const table = page.getByTestId('accounts-table');
  await expect(table).toBeVisible();
  for (const account of alex.linkedAccounts) {
    await expect(table.getByRole('row', { name: new RegExp(account.accountName) })).toContainText(account.accountId);
  }
  // Another user's accounts are not there.
  await expect(table).not.toContainText(jordan.linkedAccounts[0]!.accountId);
  await expect(table.getByRole('row')).toHaveCount(alex.linkedAccounts.length + 1);

  if (KEYCHAIN_REQUIRED) {
    expect(app.services.secrets.status.kind).toBe('keychain');
    expect(await loadKeytar().getPassword(workerKeychainService(keychainService('sandbox')), alex.username)).not.toBeNull();
  }
});

test('a wrong password shows the service description and keeps what was typed', async ({ openApp }) => {
  const page = await openApp();
  await signIn(page, alex.username, 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await expect(page.getByLabel('Username or e-mail')).toHaveValue(alex.username);
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
});

test('empty fields get a message next to the field before anything is sent', async ({ openApp }) => {
  const page = await openApp();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter your username or e-mail')).toBeVisible();
  await expect(page.getByLabel('Username or e-mail')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Username or e-mail')).toBeFocused();
});

test('signing out returns to sign-in and deletes the keychain entry', async ({ openApp, app }) => {
  test.skip(!KEYCHAIN_REQUIRED, 'needs the real keychain: run through npm test (scripts/with-keychain.sh)');
  const page = await openApp();
  // The sign-in view says which store will hold the session.
  await expect(page.getByTestId('keychain-status')).toHaveText('Saved in the system keychain.');
  await signIn(page, jordan.username, jordan.password);
  await expect(page.getByTestId('signed-in-user')).toHaveText(jordan.username);
  expect(app.services.secrets.status.kind).toBe('keychain');
  const keytar = loadKeytar();
  expect(await keytar.getPassword(workerKeychainService(keychainService('sandbox')), jordan.username)).not.toBeNull();

  await openAccountMenu(page);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
  await expect.poll(() => keytar.getPassword(workerKeychainService(keychainService('sandbox')), jordan.username)).toBeNull();
});

test('the built-in sandbox offers its demo accounts by name: one click signs in, and no password reaches the window', async ({ openApp, app }) => {
  const page = await openApp();
  const demo = page.getByRole('list', { name: 'Demo accounts' });
  await expect(demo.getByRole('button')).toHaveCount(SANDBOX_USERS.length);
  expect(await page.content()).not.toContain(jordan.password);
  await demo.getByRole('button', { name: new RegExp(`Continue as ${jordan.displayName}`) }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(jordan.username);
  expect((await app.services.handlers['session.status'](undefined)).username).toBe(jordan.username);
  // The picker shows the whole name of the built-in environment.
  await openAccountMenu(page);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Environment').locator('option:checked')).toHaveText('Sandbox (built in)');
  const picker = await page.getByLabel('Environment').evaluate((select) => ({ scroll: select.scrollWidth, client: select.clientWidth }));
  expect(picker.scroll).toBeLessThanOrEqual(picker.client);
});

