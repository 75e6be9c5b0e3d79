import type { Page } from '@playwright/test';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { workerKeychainService } from '../support/worker-keychain.js';
import { loadKeytar } from '../../electron/services/secrets/keytar-secret-store.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { KEYCHAIN_REQUIRED } from '../support/keychain.js';
import type { TestApp } from '../support/test-app.js';
import { expect, signIn, test } from './fixtures.js';
import { axeOn } from './support/axe.js';
import { sandboxAccess } from '../support/test-app.js';

const alex = SANDBOX_USERS[0] as (typeof SANDBOX_USERS)[number];

/** Moves the sandbox's clock past the token's lifetime: the service now rejects it. */
async function expireTokenOnService(app: TestApp): Promise<void> {
  const response = await fetch(`${app.services.sandbox.url}/sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sandboxAccess(app.services) },
    body: JSON.stringify({ advanceSeconds: 3_601 }),
  });
  expect(response.status).toBe(200);
}

async function openAccountsWithSearch(page: Page, text: string): Promise<void> {
  await signIn(page, alex.username, alex.password);
  await expect(page.getByTestId('signed-in-user')).toHaveText(alex.username);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Linked accounts' }).click();
  await expect(page.getByTestId('accounts-table')).toBeVisible();
  await page.locator('#accounts-search').fill(text);
  // Marks the very element: if the view were unmounted and rebuilt, the mark would be gone.
  await page.locator('#accounts-search').evaluate((input) => {
    (input as unknown as { reauthMark?: string }).reauthMark = 'same element';
  });
}

const markOf = (page: Page) =>
  page.locator('#accounts-search').evaluate((input) => (input as unknown as { reauthMark?: string }).reauthMark ?? null);

test.describe('re-sign-in over the current view', () => {
  // No refresh of the copy at sign-in: one ending after the token expired (and the views reading again after
  // it) would meet the expired token before the view's own request, and the dialog would come first, from them.
  test.use({ appOptions: { refreshReplicaAtSignIn: false } });

  test('asks for the password in a modal and keeps what the user typed in the view underneath', async ({ openApp, app }) => {
    const page = await openApp();
    await openAccountsWithSearch(page, 'analytics');
    await expireTokenOnService(app);

    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    // The view shows its own error for the refused request; the dialog comes over it.
    await expect(page.getByTestId('error-message')).toHaveAttribute('data-kind', 'unauthorized');
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('The service ended your session');
    await expect(dialog.getByTestId('reauth-username')).toHaveText(alex.username);
    await expect(dialog.getByLabel('Password')).toBeFocused();
    expect((await axeOn(page).include('[data-testid="reauth-dialog"]').analyze()).violations).toEqual([]);

    // The view is still there, untouched, under the modal; the sign-in screen never came.
    await expect(page.locator('#accounts-search')).toHaveValue('analytics');
    expect(await markOf(page)).toBe('same element');
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toHaveCount(0);

    // Escape does not dismiss it: the app cannot work without a session.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();

    await dialog.getByLabel('Password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(dialog.getByText('Invalid username or password')).toBeVisible();
    await expect(dialog.getByLabel('Password')).toHaveValue('');

    await dialog.getByLabel('Password').fill(alex.password);
    await dialog.getByLabel('Password').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('signed-in-user')).toHaveText(alex.username);
    await expect(page.locator('#accounts-search')).toHaveValue('analytics');
    expect(await markOf(page)).toBe('same element');

    // Signed in again for real: the view's next request goes through.
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect(page.getByTestId('error-message')).toHaveCount(0);
    await expect(page.getByTestId('account-row')).toHaveCount(1);
    await expect(page.getByTestId('account-row')).toContainText('morgan-analytics');
    if (KEYCHAIN_REQUIRED) {
      await expect.poll(() => loadKeytar().getPassword(workerKeychainService(keychainService('sandbox')), alex.username)).not.toBeNull();
    }
  });

  test('"Sign out instead" leaves for the sign-in screen', async ({ openApp, app }) => {
    const page = await openApp();
    await openAccountsWithSearch(page, 'gcp');
    await expireTokenOnService(app);
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    // Whichever request meets the expired token first brings the dialog; the view's Refresh is asked until one has.
    await expect(async () => {
      if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Refresh', exact: true }).click({ timeout: 2_000 });
      await expect(dialog).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Sign out instead' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });
});

test('shows the main process’s warning before the session expires, until dismissed', async ({ openApp, app }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  await expect(page.getByTestId('signed-in-user')).toHaveText(alex.username);
  const status = app.services.session.status();
  // The main process's timer (tested on its own) emits this five minutes before expiry; here it is sent at once.
  app.services.events.emit('session.expiring', {
    profileId: status.profileId,
    username: alex.username,
    expiresAt: status.expiresAt ?? '',
    minutesLeft: 5,
  });
  const warning = page.getByTestId('session-expiring');
  await expect(warning).toContainText('Your session ends in 5 minutes');
  await warning.getByRole('button', { name: 'Dismiss' }).click();
  await expect(warning).toHaveCount(0);
});

test.describe('environments', () => {
  test('adds an environment from the sign-in screen, refusing plain http to another computer', async ({ openApp }) => {
    const page = await openApp();
    await page.getByRole('button', { name: 'Manage environments…' }).click();
    const manager = page.getByRole('dialog', { name: 'Environments' });
    await expect(manager).toBeVisible();
    await expect(manager.getByTestId('profile-row').first()).toContainText('Sandbox');
    await expect(manager.getByLabel('Name')).toBeFocused();

    await manager.getByLabel('Name').fill('Staging');
    await manager.getByLabel('Base URL').fill('http://staging.example.com');
    await manager.getByRole('button', { name: 'Add environment' }).click();
    await expect(manager.getByText('Use https:// for a service on another computer')).toBeVisible();
    await expect(manager.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');

    await manager.getByLabel('Base URL').fill('https://staging.example.com/');
    await manager.getByRole('button', { name: 'Add environment' }).click();
    await expect(manager.getByTestId('profile-row')).toHaveCount(2);
    await expect(manager.getByTestId('profile-row').nth(1)).toContainText('https://staging.example.com');
    // The browser host has no OS proxy resolver: the proxy variables decide, and the sandbox on this computer is always direct.
    await expect(manager.getByTestId('profile-row').first().getByTestId('profile-proxy')).toHaveText('Proxy: none, direct connection');
    const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => process.env[name]);
    await expect(manager.getByTestId('profile-row').nth(1).getByTestId('profile-proxy')).toHaveText(
      proxied ? /^Proxy: .+ \(HTTPS_PROXY \/ HTTP_PROXY\)$/ : 'Proxy: none, direct connection',
    );
    // The browser host has no Chromium network stack of its own: every environment goes through undici.
    await expect(manager.getByTestId('profile-row').nth(1).getByTestId('profile-route')).toHaveText('Route: Node (undici)');
    expect((await axeOn(page).include('[data-testid="profile-manager"]').analyze()).violations).toEqual([]);

    await manager.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByLabel('Environment')).toHaveValue('staging');
    await expect(page.getByText('Signs in at https://staging.example.com')).toBeVisible();
  });
});
