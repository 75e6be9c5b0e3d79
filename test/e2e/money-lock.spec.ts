import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  addFault,
  clearFaults,
  expect,
  expectAccessible,
  firstWithStatus,
  openDetail,
  requestCount,
  sandboxControl,
  screenshot,
  test as base,
  testOnSharedApp,
} from './support/capacity.js';

/**
 * Through the real UI: a purchase whose outcome is unknown
 * is never offered again; the dialog explains and offers "Check status"; every
 * tab disables the policy's money buttons; money confirmations open on the
 * safe choice.
 */
const test = base.extend<{ app: TestApp }>({
  app: async ({}, use) => {
    // Our timeout 1.5 s, one read-back at once; an unknown outcome is final only after a minute.
    const app = await startTestApp({
      http: { timeouts: { connectMs: 2_000, headersMs: 1_500, bodyMs: 1_500 } },
      moneyCheckDelaysMs: [0],
      moneyFinalAfterMs: 60_000,
    });
    await use(app);
    await app.close();
  },
});
test.describe.configure({ timeout: 90_000 });

const PURCHASE = '/external/api/v1/flexcompute/purchase';

test('a purchase that times out locks the policy: the dialog explains and offers Check status, never a resend', async ({ openSignedIn, app, context }) => {
  const page = await openSignedIn();
  const ready = await firstWithStatus(app, 'READY_FOR_PURCHASE');
  await openDetail(page, ready.cidrId);
  await sandboxControl(app, 'POST', '/stats/reset');
  // The service holds the purchase until the test lets it go (after our timeout, our read-back and a second
  // tab's look at the policy), then carries it out: no clock decides the order.
  await addFault(app, { pathPrefix: PURCHASE, method: 'POST', hold: true });

  const actions = page.getByTestId('policy-actions');
  await actions.getByRole('button', { name: 'Purchase…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  await dialog.getByRole('button', { name: /^Purchase for/ }).click();

  await expect(dialog).toContainText(
    'We could not confirm whether the purchase went through. Nothing will be sent again until we know.',
    { timeout: 15_000 },
  );
  const check = dialog.getByRole('button', { name: 'Check status' });
  await expect(check).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Purchase for/ })).toHaveCount(0);
  // Another tab of the app, on the same policy: its purchase button is off too, with the reason.
  const second = await context.newPage();
  await second.goto(app.host.origin);
  await openDetail(second, ready.cidrId);
  const secondPurchase = second.getByTestId('policy-actions').getByRole('button', { name: 'Purchase…' });
  await expect(secondPurchase).toBeDisabled();
  await expect(secondPurchase).toHaveAttribute('title', /could not confirm whether the purchase went through/);
  await expect(second.getByTestId('money-lock')).toContainText('Nothing will be sent again until we know');

  await expectAccessible(page, 'purchase with an unknown outcome', '[data-testid="purchase-dialog"]');
  await screenshot(page, 'purchase-outcome-unknown');

  // The service carries the held purchase out; Check status until it shows: then the dialog says it was purchased.
  // Held at the service (its arrival there is not ordered with our read-back under load: waited for, not read once).
  await expect.poll(async () => (await sandboxControl<{ held: number }>(app, 'GET', '/faults')).held).toBe(1);
  await clearFaults(app);
  await expect(async () => {
    await check.click();
    await expect(dialog.getByTestId('money-lock-settled')).toContainText('now shows as purchased', { timeout: 1_000 });
  }).toPass({ timeout: 40_000, intervals: [500] });
  await expect(dialog.getByRole('button', { name: /^Purchase for/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Both tabs show it purchased (the detail was read again), and it was sent once.
  await expect(page.getByTestId('capacity-detail-view').getByTestId('status-badge').first()).toHaveAttribute('data-status', 'ACTIVE');
  await expect(second.getByTestId('policy-actions').getByRole('button', { name: 'Purchase…' })).toHaveCount(0);
  expect(await requestCount(app, 'purchaseCapacity')).toBe(1);
});

// Opening a confirmation needs no short timeouts: this test and the next take the worker's shared app.
testOnSharedApp('the purchase confirmation opens on Cancel: Enter, Enter buys nothing', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const ready = await firstWithStatus(app, 'READY_FOR_PURCHASE');
  await openDetail(page, ready.cidrId);
  await sandboxControl(app, 'POST', '/stats/reset');

  await page.getByTestId('policy-actions').getByRole('button', { name: 'Purchase…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // Focus is back on "Purchase…": a second Enter opens the confirmation again, once more on Cancel.
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect(await requestCount(app, 'purchaseCapacity')).toBe(0);
});

testOnSharedApp('the cancel confirmation opens on Keep policy', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const active = await firstWithStatus(app, 'ACTIVE');
  await openDetail(page, active.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${active.policyName}?` });
  await expect(dialog.getByRole('button', { name: 'Keep policy' })).toBeFocused();
});
