import { test as base, expect, type Page } from '@playwright/test';
import { sandboxAccess, startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

/**
 * Each test gets its own app: fresh data folder, its own sandbox, its own host.
 * `test.use({ appOptions })` changes how it starts (e.g. without the replica's
 * fill after sign-in, for a test of the list paging the service).
 *
 * A read-only spec (it changes nothing on the service, in the data folder or in
 * the preferences) may say `test.use({ shareApp: true })`: its tests then use
 * one app per worker, started at its first test and signed out after each, so
 * every test still starts at the sign-in screen.
 */
export const test = base.extend<
  { appOptions: TestAppOptions; shareApp: boolean; app: TestApp; openApp: () => Promise<Page> },
  { workerApp: { get(): Promise<TestApp> } }
>({
  appOptions: [{}, { option: true }],
  shareApp: [false, { option: true }],
  // Started only when a test of the worker asks for it.
  workerApp: [
    async ({}, use) => {
      const started: { app?: Promise<TestApp> } = {};
      await use({ get: () => (started.app ??= startTestApp()) });
      if (started.app) await (await started.app).close();
    },
    { scope: 'worker' },
  ],
  app: async ({ appOptions, shareApp, workerApp }, use) => {
    if (!shareApp) {
      const app = await startTestApp(appOptions);
      await use(app);
      await app.close();
      return;
    }
    if (Object.keys(appOptions).length > 0) throw new Error('a shared app starts with the default options: drop shareApp or appOptions');
    const app = await workerApp.get();
    await use(app);
    await leaveAsFound(app);
  },
  openApp: async ({ app, page }, use) => {
    await use(async () => {
      await page.goto(app.host.newLaunchUrl());
      await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
      return page;
    });
  },
});

/** What a read-only test may leave behind in a shared app: its session and any sandbox fault. */
async function leaveAsFound(app: TestApp): Promise<void> {
  await app.services.handlers['session.signOut'](undefined);
  const cleared = await fetch(`${app.services.sandbox.url}/sandbox/faults`, { method: 'DELETE', headers: sandboxAccess(app.services) });
  if (!cleared.ok) throw new Error(`the shared app's sandbox did not clear its faults: ${cleared.status}`);
}

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
