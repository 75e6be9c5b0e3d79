import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { addFault, clearFaults } from './cyber-support.js';
import { expect, openAccountMenu, signIn, test } from './fixtures.js';

const alex = SANDBOX_USERS[0]!;

test('the service goes away mid-session: lists and details stay browsable from the offline copy, actions are off', async ({ openApp, app }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  const nav = page.getByRole('navigation', { name: 'Main' });

  // Online: open one policy (its details are kept), then sync everything.
  await nav.getByRole('button', { name: 'Capacity policies' }).click();
  const firstRow = page.getByTestId('capacity-table').getByRole('row').nth(1);
  await expect(firstRow).toBeVisible();
  const cidrId = ((await firstRow.textContent()) ?? '').match(/sc_\d+/)?.[0] ?? '';
  expect(cidrId).toMatch(/^sc_\d+$/);

  await openAccountMenu(page);
  await page.getByTestId('open-sync').click();
  await page.getByTestId('sync-now').click();
  await expect(page.getByTestId('sync-summary')).toContainText('capacity policies', { timeout: 20_000 });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sync-dialog')).toBeHidden();

  // The service goes away.
  await app.services.sandbox.close();
  await nav.getByRole('button', { name: 'Overview' }).click();
  await nav.getByRole('button', { name: 'Capacity policies' }).click();

  const banner = page.getByTestId('offline-banner');
  await expect(banner).toBeVisible({ timeout: 15_000 });
  await expect(banner).toContainText('cannot be reached');
  await expect(page.getByTestId('offline-age')).toHaveText(/now|minute|second/);
  await expect(page.getByTestId('offline-count')).toContainText('policies');

  // Search, answered by the main process from the cache.
  await page.getByTestId('offline-search').fill(cidrId);
  const rows = page.getByTestId('capacity-table').getByRole('row');
  await expect(rows.filter({ hasText: cidrId })).toHaveCount(1);
  await rows.filter({ hasText: cidrId }).click();
  await expect(page.getByRole('heading', { name: cidrId })).toBeVisible();
  await expect(page.getByTestId('offline-actions-disabled')).toBeVisible();
  await expect(page.locator('#content').getByRole('button', { name: /cancel policy|purchase|save configuration|renewal/i })).toHaveCount(0);

  // Screens that need the service say so.
  await nav.getByRole('button', { name: 'Search & purchase' }).click();
  await expect(page.getByTestId('needs-service')).toBeVisible();
  await expect(banner).toBeVisible();
});

test('working offline by choice, and back online', async ({ openApp }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  await openAccountMenu(page);
  await page.getByTestId('open-sync').click();
  await page.getByTestId('sync-now').click();
  await expect(page.getByTestId('sync-summary')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('work-offline').click();
  await expect(page.getByTestId('offline-banner')).toContainText('You chose to work offline');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Capacity policies' }).click();
  await page.getByTestId('offline-status').selectOption('ACTIVE');
  await expect(page.getByTestId('capacity-table').getByRole('row').nth(1)).toContainText(/active/i);
  await page.getByTestId('offline-banner').getByRole('button', { name: 'Go back online' }).click();
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('no network at sign-in: the last user reviews the offline copy without signing in', async ({ openApp, app, page }) => {
  await openApp();
  await signIn(page, alex.username, alex.password);
  await openAccountMenu(page);
  await page.getByTestId('open-sync').click();
  await page.getByTestId('sync-now').click();
  await expect(page.getByTestId('sync-summary')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await openAccountMenu(page);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();

  await app.services.sandbox.close();
  await page.getByTestId('review-offline').click();
  await expect(page.getByTestId('offline-banner')).toContainText('Reviewing offline without signing in');
  await expect(page.getByTestId('offline-count')).toContainText('policies');
  await expect(page.getByTestId('capacity-table').getByRole('row').nth(1)).toContainText(/sc_\d+/);
  await openAccountMenu(page);
  await page.getByRole('button', { name: 'Leave offline review' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
});

test('background refresh of the offline copy is chosen in Preferences and kept', async ({ openApp, app, page }) => {
  await openApp();
  await signIn(page, alex.username, alex.password);
  await openAccountMenu(page);
  await page.getByTestId('open-preferences').click();
  await page.getByTestId('pref-offline-refresh').selectOption('60');
  await expect.poll(async () => (await app.services.handlers['preferences.get'](undefined)).offlineRefreshMinutes).toBe(60);
  await page.keyboard.press('Escape');
  await page.reload();
  await openAccountMenu(page);
  await page.getByTestId('open-preferences').click();
  await expect(page.getByTestId('pref-offline-refresh')).toHaveValue('60');
});

test('an offline copy damaged on disk, with the service down: the user is told it could not be read, how old it was and what was lost, and a fresh sync replaces it', async ({ openApp, app }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  await openAccountMenu(page);
  await page.getByTestId('open-sync').click();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-summary')).toContainText('capacity policies', { timeout: 20_000 });
  await page.keyboard.press('Escape');
  const held = (await app.services.handlers['capacity.list']({ limit: 1, offset: 0, text: '', sortBy: 'createdDate', sortOrder: 'desc' })).total;

  // A byte of the copy flips on disk while the app runs, then the service goes away.
  const shards = (await readdir(join(app.dataDir, 'cache'), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && /^\d+\.bin$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  expect(shards.length, 'the copy is on disk (run under scripts/with-keychain.sh)').toBeGreaterThan(0);
  const bytes = await readFile(shards[0]!);
  bytes[bytes.length >> 1]! ^= 0x01;
  await writeFile(shards[0]!, bytes);
  await addFault(app, { dropRate: 1 });

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Overview' }).click();
  await nav.getByRole('button', { name: 'Capacity policies' }).click();

  const notice = page.getByRole('alert').filter({ hasText: 'Your offline copy could not be read' });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await expect(notice).toContainText('it was damaged or changed on disk');
  await expect(notice).toContainText(`It held ${held.toLocaleString('en-US')} policies, last updated`);
  await expect(notice.locator('time')).toHaveText(/now|second|minute/);
  await expect(notice).toContainText('Nothing from it will be shown.');
  await expect(notice).toContainText('The service cannot be reached either');
  // Nothing of the copy is shown: the app does not switch to it.
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);

  await notice.getByRole('button', { name: 'Sync a fresh copy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sync for offline use' });
  await expect(dialog).toContainText('Your previous offline copy could not be read');

  // The service is back: a fresh sync replaces the copy, and the notice goes.
  await clearFaults(app);
  await dialog.getByRole('button', { name: 'Sync now' }).click();
  await expect(dialog.getByTestId('sync-summary')).toContainText('capacity policies', { timeout: 20_000 });
  await expect(notice).toHaveCount(0);
});
