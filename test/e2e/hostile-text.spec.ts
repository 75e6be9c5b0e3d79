import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { ALEX, expect, listFromOtherWindow, openList, test } from './support/capacity.js';
import { sandboxAccess } from '../support/test-app.js';

/**
 * A policy name from the service with a right-to-left override and a
 * zero-width space ("Invoice \u202Efdp.exe" reads "Invoice exe.pdf") is shown
 * with both made visible in the list, the detail, the palette and dialog
 * titles, and no invisible control reaches the page's text or attributes.
 */
const RAW_NAME = 'Invoice \u202Efdp.exe \u200Bsc_1';
const SHOWN_NAME = 'Invoice [U+202E]fdp.exe [U+200B]sc_1';

test.use({ appOptions: { refreshReplicaAtSignIn: false } });
test.describe.configure({ timeout: 60_000 });

/** Every text and attribute of the page: none may hold a bidi control or a zero-width character. */
async function invisibleControlsOnPage(page: Page): Promise<string[]> {
  return page.locator('html').evaluate((html) => {
    const found: string[] = [];
    const controls = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;
    const SHOW_ELEMENT_AND_TEXT = 0x1 | 0x4;
    const walker = html.ownerDocument.createTreeWalker(html, SHOW_ELEMENT_AND_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === 3 && controls.test(node.nodeValue ?? '')) found.push(`text: ${JSON.stringify(node.nodeValue)}`);
      if (node.nodeType === 1) {
        for (const attribute of (node as unknown as typeof html).attributes) {
          if (controls.test(attribute.value)) found.push(`${attribute.name}: ${JSON.stringify(attribute.value)}`);
        }
      }
    }
    return found;
  });
}

test('a name with bidi and zero-width controls shows them visibly in the list, detail, palette and dialog title', async ({ app, page }) => {
  const handlers = app.services.handlers;
  await handlers['session.signIn']({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
  const newest = (await listFromOtherWindow(app, { offset: 0, limit: 20, sortOrder: 'desc', status: 'ACTIVE' })).rows[0] as CapacityPolicy;
  const renamed = await fetch(`${app.services.sandbox.url}/sandbox/rename`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sandboxAccess(app.services) },
    body: JSON.stringify({ cidrId: newest.cidrId, policyName: RAW_NAME }),
  });
  expect(renamed.status).toBe(200);

  await page.goto(app.host.newLaunchUrl());
  await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX.username);

  // The list.
  await openList(page);
  await page.getByTestId('status-filter').getByRole('radio', { name: 'Active' }).click();
  await expect(page.getByTestId('capacity-list-view').getByText(SHOWN_NAME)).toBeVisible();
  expect(await invisibleControlsOnPage(page)).toEqual([]);

  // The palette, searched by a part of the raw name.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  await palette.getByRole('combobox').fill('fdp.exe');
  const option = palette.getByRole('option', { name: new RegExp(newest.cidrId) });
  await expect(option).toContainText(SHOWN_NAME);
  expect(await invisibleControlsOnPage(page)).toEqual([]);
  await option.click();

  // The detail.
  await expect(page.getByTestId('detail-cidr')).toHaveText(newest.cidrId);
  await expect(page.locator('#detail-title')).toHaveText(SHOWN_NAME);
  expect(await invisibleControlsOnPage(page)).toEqual([]);

  // A dialog's title.
  await page.getByRole('button', { name: 'Cancel policy…' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${SHOWN_NAME}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: `Cancel ${SHOWN_NAME}?` })).toBeVisible();
  expect(await invisibleControlsOnPage(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Keep policy' }).click();
});
