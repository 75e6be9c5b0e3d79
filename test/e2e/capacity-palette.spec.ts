import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { expect, expectAccessible, screenshot, test, listFromOtherWindow, testOnSharedApp } from './support/capacity.js';

test.describe.configure({ timeout: 60_000 });

testOnSharedApp('Ctrl+K jumps to a policy by name or id, to a filtered list and to every view', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const newest = await listFromOtherWindow(app, { offset: 0, limit: 100, sortOrder: 'desc' });
  const target = newest.rows[7] as CapacityPolicy;

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  const input = palette.getByRole('combobox');
  await expect(input).toBeFocused();
  // With nothing typed, it offers every view.
  await expect(palette.getByRole('option')).toHaveText([/Overview/, /Capacity policies/, /Search & purchase/, /Disaster recovery/, /Linked accounts/, /Customers/, /Renewals/,
    /Preferences/, /Export capacity policies as CSV/, /Export capacity policies as Excel/, /Work offline/]);

  await input.fill(target.policyName);
  const option = palette.getByRole('option', { name: new RegExp(target.cidrId) });
  await expect(option).toBeVisible();
  await expect(palette.getByRole('option').first()).toContainText(target.cidrId);
  await expectAccessible(page, 'command palette', '[data-testid="command-palette"]');
  await screenshot(page, 'palette');
  await input.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('detail-cidr')).toHaveText(target.cidrId);

  // By id, with arrows to choose.
  const other = newest.rows[3] as CapacityPolicy;
  await page.keyboard.press('Control+k');
  await input.fill(other.cidrId);
  await expect(palette.getByRole('option').first()).toContainText(other.cidrId);
  await input.press('ArrowDown');
  await input.press('ArrowUp');
  await input.press('Enter');
  await expect(page.getByTestId('detail-cidr')).toHaveText(other.cidrId);

  // A whole id the index has not seen is still opened (the detail says if it does not exist).
  await page.keyboard.press('Control+k');
  await input.fill('sc_9999999');
  await expect(palette.getByRole('option').first()).toHaveText(/Open policy sc_9999999/);
  await input.press('Enter');
  await expect(page.getByTestId('error-message')).toHaveAttribute('data-kind', 'not-found');

  // A filtered list.
  await page.keyboard.press('Control+k');
  await input.fill('expired');
  await palette.getByRole('option', { name: /Expired capacity policies/ }).click();
  await expect(page.getByTestId('status-filter').getByRole('radio', { name: 'Expired' })).toBeChecked();

  // Views, and Escape closes without going anywhere.
  await page.keyboard.press('Control+k');
  await input.fill('search');
  await input.press('Enter');
  await expect(page.getByTestId('search-view')).toBeVisible();
  await page.getByRole('button', { name: /Go to…/ }).click();
  await expect(input).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('search-view')).toBeVisible();
});

testOnSharedApp('Ctrl+K forgives a typo and separators, and finds policies by instance type and zone', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const newest = await listFromOtherWindow(app, { offset: 0, limit: 100, sortOrder: 'desc' });
  const target = newest.rows[5] as CapacityPolicy;
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  const input = palette.getByRole('combobox');

  // "Web tier us-east-1 6" typed as "Web-ter-us-east-1-6": one letter dropped, hyphens for spaces.
  const words = target.policyName.split(' ');
  const long = words.findIndex((word) => word.length >= 4);
  const typo = words.map((word, i) => (i === long ? word.slice(0, 2) + word.slice(3) : word)).join('-');
  expect(typo.toLowerCase()).not.toContain(words[long]!.toLowerCase());
  await page.keyboard.press('Control+k');
  await input.fill(typo);
  await expect(palette.getByRole('option', { name: new RegExp(target.cidrId) })).toBeVisible();
  await palette.getByRole('option', { name: new RegExp(target.cidrId) }).click();
  await expect(page.getByTestId('detail-cidr')).toHaveText(target.cidrId);

  // No policy name holds its instance type or zone; both are searched all the same.
  const typeAndZone = `${target.policyInstance.instanceType} ${target.cspRegion.availabilityZoneId}`;
  expect(target.policyName).not.toContain(target.policyInstance.instanceType);
  await page.keyboard.press('Control+k');
  await input.fill(typeAndZone);
  await expect(palette.getByRole('option', { name: new RegExp(target.cidrId) })).toBeVisible();
});
