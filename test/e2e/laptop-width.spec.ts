/**
 * Issues 26/28 (day13, branch ux14): at a laptop's width (1,280 and 1,440 CSS px) every main view fits the
 * window: the page never scrolls sideways (a wide table scrolls inside its own region, its first column sticky),
 * and the header's user name is shown whole, inside the window.
 */
import type { Page } from '@playwright/test';
import { showCustomer } from './cyber-support.js';
import { ALEX, expect, firstWithStatus, navTo, openDetail, openList, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });

interface Fit {
  scrollWidth: number;
  clientWidth: number;
  /** The user name's box and whether its text is clipped (an ellipsis). */
  user: { left: number; right: number; clipped: boolean } | null;
}

async function fit(page: Page): Promise<Fit> {
  return page.locator('body').evaluate((body) => {
    const doc = body.ownerDocument;
    const root = doc.scrollingElement!;
    const name = doc.querySelector('[data-testid="signed-in-user"]');
    const box = name?.getBoundingClientRect();
    return {
      scrollWidth: root.scrollWidth,
      clientWidth: root.clientWidth,
      user: name && box ? { left: Math.round(box.left), right: Math.round(box.right), clipped: name.scrollWidth > name.clientWidth + 1 } : null,
    };
  });
}

async function expectFits(page: Page, view: string, width: number): Promise<void> {
  // A layout settles over a frame or two after the view's heading shows (its table's columns are measured, a resize
  // observer's answer drawn in the frame after): three frames painted, however long the load makes them, where a fixed
  // 300 ms could end before the second frame of a loaded page (flake17).
  await page.evaluate(`new Promise((resolve) => {
    let left = 3;
    const tick = () => (--left <= 0 ? setTimeout(resolve, 0) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  })`);
  const measured = await fit(page);
  const where = `${view} at ${width} px: ${JSON.stringify(measured)}`;
  expect.soft(measured.scrollWidth, where).toBeLessThanOrEqual(measured.clientWidth);
  expect.soft(measured.user, where).not.toBeNull();
  expect.soft(measured.user!.clipped, where).toBe(false);
  expect.soft(measured.user!.left, where).toBeGreaterThanOrEqual(0);
  expect.soft(measured.user!.right, where).toBeLessThanOrEqual(measured.clientWidth);
}

const heading = (page: Page) => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

for (const width of [1280, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('every main view fits the window without sideways scroll, the user name whole in the header', async ({ app, openSignedIn }) => {
      const handlers = app.services.handlers;
      const page = await openSignedIn();
      await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
      await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX.username);
      await handlers['customers.save']({ name: 'Northwind Traders', externalIds: ['CUST-1001'], accounts: ['morgan-prod'], contact: '', notes: '' });

      await heading(page);
      await expectFits(page, 'Overview', width);

      await openList(page);
      await expectFits(page, 'Capacity policies', width);

      const active = await firstWithStatus(app, 'ACTIVE');
      await openDetail(page, active.cidrId);
      await expect(page.getByTestId('detail-cidr')).toHaveText(active.cidrId);
      await expectFits(page, 'Capacity detail', width);

      await navTo(page, 'Search & purchase');
      await heading(page);
      await expectFits(page, 'Search & purchase', width);

      await navTo(page, 'Linked accounts');
      await heading(page);
      await expectFits(page, 'Linked accounts', width);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
      await expect(page.getByTestId('customer-book')).toBeVisible();
      await expectFits(page, 'Customers', width);
      await page.getByTestId('customer-book').getByRole('button', { name: 'Northwind Traders', exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Northwind Traders' })).toBeVisible();
      await expectFits(page, 'Customer page', width);

      await navTo(page, 'Renewals');
      await heading(page);
      const note = page.getByRole('button', { name: /^Note and snooze for / }).first();
      await expect(note).toBeVisible({ timeout: 30_000 });
      await expectFits(page, 'Renewals', width);
      // The row's last column (its note and snooze) is reachable: whole inside the table's own scrolling region.
      await note.scrollIntoViewIfNeeded();
      // Whole inside its cell too: the cell hides what runs over it, so a button wider than its column was drawn cut
      // at the cell's edge while the button itself measured whole (money18).
      const noteBox = await note.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const cell = el.closest('[role="gridcell"]')!.getBoundingClientRect();
        return { right: box.right, cellRight: cell.right, clipped: el.scrollWidth > el.clientWidth + 1, innerWidth: el.ownerDocument.documentElement.clientWidth };
      });
      expect(noteBox.clipped, JSON.stringify(noteBox)).toBe(false);
      expect(noteBox.right, JSON.stringify(noteBox)).toBeLessThanOrEqual(noteBox.innerWidth);
      expect(noteBox.right, JSON.stringify(noteBox)).toBeLessThanOrEqual(noteBox.cellRight + 0.5);

      await showCustomer(page, 'CUST-1001');
      await expect(page.getByTestId('cyber-row').first()).toBeVisible();
      await expectFits(page, 'Disaster recovery', width);

      await page.getByTestId('account-menu-button').click();
      await page.getByTestId('open-preferences').click();
      const preferences = page.getByRole('dialog', { name: /Preferences/ });
      await expect(preferences).toBeVisible();
      await expectFits(page, 'Preferences', width);
      const box = await preferences.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    });
  });
}
