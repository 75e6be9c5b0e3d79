import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { parseCancellationFee } from '../../shared/api/contract-choices.js';
import { formatMoney } from '../../shared/format/money.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { SandboxClient } from './cyber-support.js';
import { ALEX, expect, expectAccessible, firstWithStatus, navTo, openDetail, screenshot, test, typeCancelConfirmation } from './support/capacity.js';

/**
 * Issue 17, item 11: the cancellation fee is no longer gone once the result
 * dialog closes. The detail keeps an Activity record of what this app did to
 * the policy, read from the local replica, so it shows offline too.
 */
test.describe.configure({ timeout: 60_000 });

const supportedActive = (p: CapacityPolicy) => p.policyInstance.instanceType !== 'm4.large';
const activity = (page: Page) => page.getByRole('region', { name: 'Activity' });

/** The background fill after sign-in is done: the copy can answer offline. */
async function replicaReady(page: Page): Promise<void> {
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
}

/** Cancels the policy shown through its dialog and returns the fee the result dialog stated, once that dialog is closed. */
async function cancelShownPolicy(page: Page, policy: CapacityPolicy): Promise<number> {
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${policy.policyName}?` });
  await typeCancelConfirmation(dialog, policy.cidrId);
  await dialog.getByRole('button', { name: 'Cancel policy' }).click();
  const result = page.getByRole('alertdialog', { name: 'Policy canceled' });
  await expect(result).toBeVisible();
  const fee = parseCancellationFee((await result.locator('.service-message').textContent()) ?? '');
  expect(fee).not.toBeNull();
  await result.getByRole('button', { name: 'Done' }).click();
  await expect(result).toHaveCount(0);
  return fee as number;
}

test.describe('with a keychain (the record is kept on disk)', () => {
  test.use({ appOptions: { secrets: new FixedSecretStore() } });

  test('after the result dialog closes the detail still shows the cancellation with its fee, when and by whom; offline too', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    await replicaReady(page);
    const policy = await firstWithStatus(app, 'ACTIVE', supportedActive);
    await openDetail(page, policy.cidrId);

    await expect(activity(page).getByRole('heading', { name: 'Activity' })).toBeVisible();
    await expect(activity(page)).toContainText('Nothing done from this app yet');

    const fee = await cancelShownPolicy(page, policy);
    const entries = activity(page).getByRole('listitem');
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText('Cancellation');
    await expect(entries.first()).toContainText('Done');
    await expect(entries.first()).toContainText(`Cancellation fee ${formatMoney(fee, 'USD')}`);
    await expect(entries.first()).toContainText(`by ${ALEX.username} in Sandbox`);
    // The time carries its zone.
    await expect(entries.first().locator('time')).toHaveText(/\(.+\)$/);
    await expect(activity(page).getByTestId('activity-session-only')).toHaveCount(0);
    await expectAccessible(page, 'activity record', '[data-testid="policy-activity"]');
    await activity(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'detail-activity');

    // Offline by choice: the detail and its record come from the local copy.
    await page.getByTestId('work-offline').click();
    await expect(page.getByTestId('offline-banner')).toContainText('You chose to work offline');
    await navTo(page, 'Overview');
    await openDetail(page, policy.cidrId);
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
    await expect(activity(page).getByRole('listitem')).toHaveCount(1);
    await expect(activity(page).getByRole('listitem').first()).toContainText(`Cancellation fee ${formatMoney(fee, 'USD')}`);
  });
});

test.describe('a DR policy', () => {
  test.use({ appOptions: { secrets: new FixedSecretStore() } });

  test('its detail shows the DR termination this app triggered, with its event', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    const customer = ALEX.customers[0]!.cidExt;
    const policy = (await (await SandboxClient.signIn(app)).allCyber(customer)).find((item) => item.terminationTriggered === false)!;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
    await page.getByLabel('External customer id').fill(customer);
    await page.keyboard.press('Enter');
    await page.getByLabel('Policy name').fill(policy.policyName);
    await page.locator(`[data-cidr-id="${policy.cidrId}"]`).getByRole('button', { name: policy.policyName }).click();
    await expect(activity(page)).toContainText('Nothing done from this app yet');

    await page.getByTestId('terminate').click();
    const dialog = page.getByTestId('terminate-dialog');
    await dialog.getByLabel('Type the policy id or name to confirm').fill(policy.cidrId);
    await dialog.getByTestId('confirm-terminate').click();
    const eventId = (await page.getByTestId('terminate-outcome').getByTestId('terminate-event-id').innerText()).replace('#', '');
    const entry = activity(page).getByRole('listitem');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('DR termination');
    await expect(entry).toContainText(`Termination event ${eventId}`);
    await expectAccessible(page, 'DR activity record', '[data-testid="policy-activity"]');
  });
});

test.describe('without a keychain', () => {
  test.use({ appOptions: { secrets: new MemorySecretStore('this test runs without a keychain') } });

  test('the record says it is kept for this session only', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    const policy = await firstWithStatus(app, 'ACTIVE', supportedActive);
    await openDetail(page, policy.cidrId);
    const fee = await cancelShownPolicy(page, policy);
    await expect(activity(page).getByRole('listitem').first()).toContainText(`Cancellation fee ${formatMoney(fee, 'USD')}`);
    await expect(activity(page).getByTestId('activity-session-only')).toHaveText(/Kept for this session only/);
  });
});
