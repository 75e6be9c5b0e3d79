import { writeLaunchFile } from '../../electron/browser-host/launch-file.js';
import { expect, test } from './fixtures.js';

/**
 * How `npm start` opens the app where there is no Electron: Chromium is given
 * the address of a file only this user can read, which forwards it to a
 * one-time launch address. Real Chromium must follow it, and only once.
 */
test('the launch file opens the app in Chromium, and its link works only once', async ({ app, page, context }) => {
  const launchUrl = app.host.newLaunchUrl();
  const file = await writeLaunchFile(app.dataDir, launchUrl);
  await page.goto(file.url);
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
  expect(page.url()).toBe(`${app.host.origin}/`);

  const again = await context.newPage();
  await again.goto(launchUrl);
  await expect(again.getByRole('heading', { name: 'This launch link cannot be used' })).toBeVisible();
  await expect(again.getByText('already been used or has expired')).toBeVisible();
  // The session opened the first time is not affected by the refused second use.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
});
