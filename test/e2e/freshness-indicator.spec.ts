/**
 * Issue 29, item 12: each main view has one quiet freshness indicator that
 * gathers where its data came from and how old it is, the keychain notice and
 * the currency note (each said once, not on every line), with its details on
 * hover, focus and click; axe finds nothing with them open.
 */
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { CURRENCY_NOT_SET_NOTE } from '../../shared/format/money.js';
import { expect, expectAccessible, otherWindow, signInAs, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });
test.use({ appOptions: { secrets: new MemorySecretStore('no keychain in this test') } });

const MAIN_VIEWS = ['Overview', 'Capacity policies', 'Search & purchase', 'Disaster recovery', 'Linked accounts', 'Customers', 'Renewals'] as const;

test('one indicator on every main view, its details on focus, hover and click, each note said once', async ({ openApp, app }) => {
  const handlers = otherWindow(app);
  const sandbox = (await handlers['profiles.list'](undefined))[0];
  // An environment without agreement terms: its amounts carry no currency, which the indicator says.
  await handlers['profiles.save']({ name: 'Partner staging', baseUrl: sandbox?.baseUrl ?? '' });
  const page = await openApp();
  await page.getByLabel('Environment').selectOption({ label: 'Partner staging' });
  await signInAs(page);
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });

  for (const view of MAIN_VIEWS) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: view, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const indicator = page.getByTestId('freshness-indicator');
    await expect(indicator, view).toHaveCount(1);
    const summary = indicator.getByRole('button');
    const details = indicator.getByTestId('freshness-details');
    await expect(summary, view).toContainText(/Local copy|Live/);
    await expect(details).toBeHidden();

    // Focus shows the details; Escape puts them away.
    await summary.focus();
    await expect(details).toBeVisible();
    await expect(summary).toHaveAttribute('aria-expanded', 'true');
    await expect(details.getByTestId('keychain-notice')).toContainText('Session not saved.');
    await expect(details.getByTestId('currency-note')).toHaveText(CURRENCY_NOT_SET_NOTE);
    // Each note once in the view: no banner above it, no second line in the status area.
    await expect(page.getByText('Session not saved.')).toHaveCount(1);
    await expect(page.getByText(CURRENCY_NOT_SET_NOTE)).toHaveCount(1);
    await expect(page.getByText(/kept in memory only/)).toHaveCount(1);
    await expectAccessible(page, `${view} with the freshness details open`);
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    await expect(summary).toBeFocused();
    await summary.blur();

    // Hover shows them while pointed at.
    await summary.hover();
    await expect(details).toBeVisible();
    await page.mouse.move(0, 0);
    await expect(details).toBeHidden();
  }

  // A click keeps them open; a second click puts them away.
  const summary = page.getByTestId('freshness-indicator').getByRole('button');
  await summary.click();
  await page.mouse.move(0, 0);
  await expect(page.getByTestId('freshness-details')).toBeVisible();
  await summary.click();
  await expect(page.getByTestId('freshness-details')).toBeHidden();
});
