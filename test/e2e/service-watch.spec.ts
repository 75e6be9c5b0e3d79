/**
 * Day13 (branch ux14): with the service gone the app said nothing until a view asked it. Now it notices by
 * itself (the main process's ServiceWatch): the person who stays on the overview, which answers from the local
 * copy, is told "offline, actions off", and when the service answers again the app is back without a click.
 */
import { ALEX, addFault, clearFaults, expect, navTo, test } from './support/capacity.js';

test.use({ appOptions: { serviceWatch: { upCheckEveryMs: 2_000, downDelaysMs: [1_000, 2_000] } } });
test.describe.configure({ timeout: 90_000 });

test('the service goes away and comes back while nobody asks it: the banner says so, the actions follow', async ({ app, openApp, page }) => {
  await openApp();
  await page.getByLabel('Username or e-mail').fill(ALEX.username);
  await page.getByLabel('Password').fill(ALEX.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  await navTo(page, 'Renewals');
  await expect(page.getByRole('heading', { name: 'Renewals', level: 1 })).toBeVisible();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveCount(0);

  // Every connection dropped; the person does nothing.
  await addFault(app, { dropRate: 1 });
  await expect(banner).toContainText('The service cannot be reached', { timeout: 20_000 });
  await expect(banner).toContainText('Actions that change policies need the service');
  // The Renewals' bulk actions are off while offline.
  await page.getByTestId('worklist-table').locator('[role="row"][data-index]').first().getByRole('checkbox').click();
  const bulk = page.getByRole('toolbar', { name: 'Selected policies' });
  await expect(bulk.getByRole('button', { name: 'Cancel policies…' })).toBeDisabled();

  // The service answers again: the app is back on its own, no "Check connection" clicked.
  await clearFaults(app);
  await expect(banner).toHaveCount(0, { timeout: 20_000 });
  await expect(bulk.getByRole('button', { name: 'Cancel policies…' })).toBeEnabled();
});
