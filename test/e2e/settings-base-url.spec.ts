import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startTestApp } from '../support/test-app.js';

/**
 * An environment that a settings file names with plain http to another host
 * (or a link-local address) is listed on the sign-in screen as unusable, with
 * the reason, and cannot be signed in to.
 */
test('the sign-in screen lists an environment from settings.json that breaks the URL rule as unusable, with the reason', async ({ page }) => {
  const app = await startTestApp({
    prepareDataDir: (dir) =>
      writeFile(
        join(dir, 'settings.json'),
        JSON.stringify({
          version: 1,
          activeProfileId: 'metadata',
          profiles: [
            { id: 'metadata', name: 'Metadata', baseUrl: 'http://169.254.169.254' },
            { id: 'prod', name: 'Prod', baseUrl: 'https://api.example.com' },
          ],
        }),
      ),
  });
  try {
    await page.goto(app.host.newLaunchUrl());
    const environment = page.getByLabel('Environment');
    await expect(environment.getByRole('option', { name: 'Metadata (cannot be used)' })).toBeAttached();
    await expect(environment.getByRole('option', { name: 'Prod', exact: true })).toBeAttached();
    await environment.selectOption('metadata');
    await expect(page.getByTestId('profile-unusable')).toContainText(
      'This environment cannot be used: Use https:// for a service on another computer (plain http is only for localhost).',
    );
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    await environment.selectOption('prod');
    await expect(page.getByTestId('profile-unusable')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  } finally {
    await page.close();
    await app.close();
  }
});
