import type { Locator } from '@playwright/test';
import { expect, expectAccessible, firstWithStatus, openDetail, test } from './support/capacity.js';

test.describe.configure({ timeout: 60_000 });
// Reads only: one app per worker (fixtures.ts).
test.use({ shareApp: true });

/** The text of the cell under the column header named `header`, in the table's first body row. */
async function cellUnder(table: Locator, header: string): Promise<string> {
  const headers = await table.getByRole('columnheader').allTextContents();
  const column = headers.findIndex((text) => text.trim() === header);
  expect(column, `column "${header}" in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  const firstRow = table.getByRole('row').nth(1);
  return ((await firstRow.locator('th, td').nth(column).textContent()) ?? '').trim();
}

test('the capacity detail puts each instance figure under its own header (issue 17, item 2)', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const active = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
  await openDetail(page, active.cidrId);

  const table = page.getByRole('table', { name: 'Instances of this policy' });
  const instance = active.policyInstance;
  expect(await cellUnder(table, 'Instance type')).toBe(instance.instanceType);
  expect(await cellUnder(table, 'Platform')).toBe(instance.platformCode);
  expect(await cellUnder(table, 'vCPU')).toBe(String(instance.vcpu));
  expect(await cellUnder(table, 'GPU memory')).toBe(instance.gpuMemory.toLocaleString('en-US'));
  expect(await cellUnder(table, 'Quantity')).toBe(instance.qty.toLocaleString('en-US'));
});

test('at 200 % zoom the instances table can be reached and scrolled by keyboard, and axe finds nothing (issue 17, item 7)', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  // 1280x800 at 200 % zoom is a 640x400 CSS viewport.
  await page.setViewportSize({ width: 640, height: 400 });
  const active = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
  await openDetail(page, active.cidrId);

  // axe's scrollable-region-focusable (serious) is what a keyboard user met here.
  await expectAccessible(page, 'capacity detail at 200 %', '[data-testid="group-instances"]');
  const region = page.getByRole('region', { name: 'Instances table' });
  await region.focus();
  await expect(region).toBeFocused();
});
