import type { Locator, Page } from '@playwright/test';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { expect, test } from './fixtures.js';
import { SandboxClient } from './cyber-support.js';
import { firstWithStatus, requestCount } from './support/capacity.js';

/**
 * Issue 17, "Done when": a purchase, a cancellation and a DR termination done
 * with the keyboard alone, the focus asserted at every step. No click, no
 * fill: keys only, as a person without a pointer works.
 */
const ALEX = SANDBOX_USERS[0]!;
test.describe.configure({ timeout: 90_000 });

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails when it never comes. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `reached with ${back ? 'Shift+Tab' : 'Tab'} within ${max} presses`).toBeFocused();
}

/** Nothing is lost: the focus is on an element inside the page, never on the body. */
async function expectFocusKept(page: Page): Promise<void> {
  // Nothing matches :focus while the body has it.
  await expect(page.locator(':focus')).toHaveCount(1);
}

async function signInByKeyboard(page: Page): Promise<void> {
  const username = page.getByLabel('Username or e-mail');
  await tabTo(page, username);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(ALEX.username);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(ALEX.password);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX.username);
}

/** Ctrl+K, a name, Enter: the command palette takes the user there; the focus lands on the new view's heading. */
async function goByPalette(page: Page, text: string, heading: string | RegExp): Promise<void> {
  await page.keyboard.press('ControlOrMeta+k');
  const box = page.getByRole('dialog', { name: 'Go to…' }).getByRole('combobox');
  await expect(box).toBeFocused();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeFocused();
}

test('a purchase with the keyboard alone: Tab to the policy, Enter, the safe choice first, then the purchase, and the focus on the record', async ({ openApp, app }) => {
  const page = await openApp();
  await signInByKeyboard(page);
  await goByPalette(page, 'Search & purchase', 'Search & purchase');

  const first = page.getByTestId('ready-policy').first();
  const cidrId = (await first.getAttribute('data-cidr')) as string;
  const purchase = first.getByRole('button', { name: `Purchase ${cidrId}` });
  await tabTo(page, purchase);
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Enter on the safe choice closes without buying, and the focus goes back where it came from.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(purchase).toBeFocused();
  expect(await requestCount(app, 'purchaseCapacity')).toBe(0);

  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  const buy = dialog.getByRole('button', { name: /^Purchase for/ });
  await tabTo(page, buy);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const record = page.getByTestId('purchased-record');
  await expect(record).toContainText(cidrId);
  // The focus is on what the purchase made, not lost with the dialog.
  await expect(record.locator(':focus')).toHaveCount(1);
  expect(await requestCount(app, 'purchaseCapacity')).toBe(1);
});

test('a cancellation with the keyboard alone: the policy opened from the palette, its fee read, the focus back on the policy', async ({ openApp, app }) => {
  const page = await openApp();
  await signInByKeyboard(page);
  const policy = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
  await goByPalette(page, policy.cidrId, policy.policyName);

  const cancel = page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' });
  await tabTo(page, cancel);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${policy.policyName}?` });
  await expect(dialog.getByRole('button', { name: 'Keep policy' })).toBeFocused();
  // A fee that may not be zero asks for the policy id: typed from the keyboard, in the field Tab reaches.
  const typed = dialog.getByLabel('Type the policy id or the fee to confirm');
  if ((await typed.count()) > 0) {
    await tabTo(page, typed, { max: 10 });
    await page.keyboard.type(policy.cidrId);
  }
  // Tab stays inside the dialog: it reaches the confirmation and never the page behind.
  const confirm = dialog.getByRole('button', { name: 'Cancel policy' });
  await tabTo(page, confirm, { max: 6 });
  await page.keyboard.press('Enter');

  const result = page.getByRole('alertdialog', { name: 'Policy canceled' });
  await expect(result.getByTestId('cancellation-fee')).toBeVisible();
  await expect(result.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(result).toBeHidden();
  await expectFocusKept(page);
  await expect(page.getByRole('heading', { name: policy.policyName, level: 1 })).toBeFocused();
  expect(await requestCount(app, 'cancelCapacity')).toBe(1);
});

test('a DR termination with the keyboard alone: the customer typed, the policy opened, the id typed to confirm, the outcome read', async ({ openApp, app }) => {
  const page = await openApp();
  await signInByKeyboard(page);
  const customer = ALEX.customers[0]!.cidExt;
  const sandbox = await SandboxClient.signIn(app);
  const policy = (await sandbox.allCyber(customer)).find((item) => item.terminationTriggered === false)!;

  await goByPalette(page, 'Disaster recovery', 'Disaster-recovery policies');
  const customerField = page.getByLabel('External customer id');
  await tabTo(page, customerField);
  await page.keyboard.type(customer);
  await page.keyboard.press('Enter');
  const nameFilter = page.getByLabel('Policy name');
  await tabTo(page, nameFilter);
  await page.keyboard.type(policy.policyName);
  const open = page.locator(`[data-cidr-id="${policy.cidrId}"]`).getByRole('button', { name: policy.policyName });
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: policy.policyName, level: 1 })).toBeFocused();

  const terminate = page.getByTestId('terminate');
  await tabTo(page, terminate);
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('terminate-dialog');
  await expect(dialog.getByRole('button', { name: 'Keep the policy as it is' })).toBeFocused();
  const typed = dialog.getByLabel('Type the policy id or name to confirm');
  await tabTo(page, typed, { max: 10 });
  await page.keyboard.type(policy.cidrId);
  const confirm = dialog.getByTestId('confirm-terminate');
  await tabTo(page, confirm, { max: 6 });
  await page.keyboard.press('Enter');

  // The outcome sits under the policy's heading, which takes the focus; one Tab away, it can be dismissed.
  const outcome = page.getByTestId('terminate-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'created');
  await expect(page.getByRole('heading', { name: policy.policyName, level: 1 })).toBeFocused();
  await tabTo(page, outcome.getByRole('button', { name: 'Dismiss this message' }), { max: 8 });
  await page.keyboard.press('Enter');
  await expect(outcome).toBeHidden();
  await expectFocusKept(page);
  await expect(page.getByRole('heading', { name: policy.policyName, level: 1 })).toBeFocused();
  expect(await requestCount(app, 'terminateCyberEvent')).toBe(1);
});
