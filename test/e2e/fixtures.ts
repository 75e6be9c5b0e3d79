import { test as base, expect, type Page } from '@playwright/test';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

/**
 * Each test gets its own app: fresh data folder, its own sandbox, its own host.
 * `test.use({ appOptions })` changes how it starts (e.g. without the replica's
 * fill after sign-in, for a test of the list paging the service).
 */
export const test = base.extend<{ appOptions: TestAppOptions; app: TestApp; openApp: () => Promise<Page> }>({
  appOptions: [{}, { option: true }],
  app: async ({ appOptions }, use) => {
    const app = await startTestApp(appOptions);
    await use(app);
    await app.close();
  },
  openApp: async ({ app, page }, use) => {
    await use(async () => {
      await page.goto(app.host.newLaunchUrl());
      await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
      return page;
    });
  },
});

export { expect };

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The account's actions (offline copy, preferences, sign out) sit behind the account button. */
export async function openAccountMenu(page: Page): Promise<void> {
  const button = page.getByTestId('account-menu-button');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}
