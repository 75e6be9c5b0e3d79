import type { Locator, Page } from '@playwright/test';
import { expect, openDetail, policiesWithStatus, test, testOnSharedApp } from './support/capacity.js';

/** Issue 29, "Smaller, each seen": the frictions a daily user met, each kept fixed here. */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 600 },
]) {
  test(`a notification at ${size.width}x${size.height} leaves the status bar's buttons clear and clickable`, async ({ openSignedIn, page }) => {
    await page.setViewportSize(size);
    await openSignedIn();
    const refresh = page.getByRole('contentinfo', { name: 'Local copy' }).getByRole('button', { name: 'Refresh now' });
    await expect(refresh).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('contentinfo', { name: 'Local copy' }).getByRole('button', { name: 'Work offline' })).toBeVisible({ timeout: 30_000 });

    await nav(page).getByRole('button', { name: 'Customers', exact: true }).click();
    await page.getByRole('button', { name: 'New customer' }).click();
    await page.getByLabel('Name').fill('Fabrikam');
    await page.getByLabel('External customer ids').fill('CUST-4242');
    await page.getByRole('button', { name: 'Save customer' }).click();
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Fabrikam is in your book' });
    await expect(toast).toBeVisible();

    const toastBox = await box(toast);
    for (const name of ['Refresh now', 'Work offline']) {
      const button = page.getByRole('contentinfo', { name: 'Local copy' }).getByRole('button', { name });
      expect(overlaps(toastBox, await box(button)), `the toast covers "${name}"`).toBe(false);
    }
    // Clickable while the toast is up: Playwright refuses a click that another element would receive.
    await refresh.click({ trial: true, timeout: 2_000 });
  });
}

test.describe('in New York', () => {
  test.use({ timezoneId: 'America/New_York', locale: 'en-US' });

  testOnSharedApp('a policy\'s dates each name the zone they fall in (EST or EDT), not one zone for all in the heading', async ({ app, openSignedIn }) => {
    const page = await openSignedIn();
    const zoneAt = (iso: string) =>
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'short' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')!.value;
    const policies = await policiesWithStatus(app, 'ACTIVE');
    // A window across a clock change shows both zones on one card, when the sandbox has one.
    const policy =
      policies.find((p) => zoneAt(p.capacityConfiguration.launchDateTime) !== zoneAt(p.capacityConfiguration.endDateTime)) ?? policies[0]!;
    await openDetail(page, policy.cidrId);
    const dates = page.getByTestId('group-dates');
    await expect(dates.getByRole('heading')).toHaveText('Dates');
    await expect(dates.getByRole('definition').nth(0)).toHaveText(new RegExp(` ${zoneAt(policy.capacityConfiguration.launchDateTime)}$`));
    await expect(dates.getByRole('definition').nth(1)).toHaveText(new RegExp(` ${zoneAt(policy.capacityConfiguration.endDateTime)}$`));
  });
});

test('the palette runs commands by name: Preferences, Export, Work offline and back, Help', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  const statusBar = page.getByRole('contentinfo', { name: 'Local copy' });
  await expect(statusBar.getByRole('button', { name: 'Work offline' })).toBeVisible({ timeout: 30_000 });
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  async function run(typed: string, option: string): Promise<void> {
    await expect(nav(page)).toBeVisible();
    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox').fill(typed);
    await palette.getByRole('option', { name: option }).click();
    await expect(palette).toBeHidden();
  }

  // With nothing typed, the commands are listed after the views.
  await page.keyboard.press('Control+k');
  await expect(palette.getByRole('option', { name: /Preferences…/ })).toBeVisible();
  await page.keyboard.press('Escape');

  await run('pref', 'Action Preferences…');
  const preferences = page.getByRole('dialog', { name: 'Preferences' });
  await expect(preferences).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preferences).toBeHidden();

  const downloading = page.waitForEvent('download');
  await run('export', 'Export capacity policies as CSV');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Capacity policies \d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByTestId('toast').filter({ hasText: 'Exported' })).toContainText(/Exported \d+ rows/);

  await run('offline', 'Action Work offline From the local copy');
  await expect(statusBar.getByRole('button', { name: 'Go back online' })).toBeVisible();
  await run('online', 'Action Go back online');
  await expect(statusBar.getByRole('button', { name: 'Work offline' })).toBeVisible({ timeout: 30_000 });

  await run('help', 'Help Help: Contract diagnostics');
  await expect(page.getByRole('dialog', { name: 'Contract diagnostics' })).toBeVisible();
});

test('the configuration editor warns, without blocking, where a value does not look like the cloud\'s format', async ({ app, openSignedIn }) => {
  const page = await openSignedIn();
  const [policy] = await policiesWithStatus(app, 'ACTIVE');
  await openDetail(page, policy!.cidrId);
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  const form = page.getByRole('form', { name: 'Configuration' });
  const vpc = form.getByRole('textbox', { name: 'VPC' });
  const keyPair = form.getByRole('textbox', { name: 'Key pair' });
  await vpc.fill('vpc-zz');
  await form.getByRole('textbox', { name: 'Machine image (AMI)' }).fill('ami-x');
  await keyPair.fill('my key');
  await expect(vpc).toHaveAccessibleDescription(/does not look like a VPC id/);
  await expect(keyPair).toHaveAccessibleDescription(/rarely contain spaces/);
  await expect(form.getByTestId('field-warning')).toHaveCount(3);
  // A warning, not an error: the fields are valid and the save goes through.
  await expect(vpc).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByTestId('config-value-vpc')).toHaveText('vpc-zz');
  // A value in the cloud's format is not doubted.
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  await vpc.fill('vpc-0a1b2c3d');
  await expect(form.getByTestId('field-warning')).toHaveCount(0);
});
