import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { parseCancellationFee } from '../../shared/api/contract-choices.js';
import { CURRENCY_NOT_SET_NOTE, formatAmount, formatMoney } from '../../shared/format/money.js';
import { SANDBOX_FEE_SCHEDULE, estimateFee } from '../../shared/money/fee-schedule.js';
import { expect, expectAccessible, firstWithStatus, openDetail, otherWindow, requestCount, screenshot, signInAs, test } from './support/capacity.js';

/** The fee before the cancel: estimate and rule, the deliberate step, and the stated fee kept on the policy. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const launchOf = (p: CapacityPolicy) => Date.parse(p.capacityConfiguration.launchDateTime);

/** Launching in under 7 days, away from the rule's edges (the test and the dialog read the clock a moment apart). */
function launchesWithinAWeek(p: CapacityPolicy): boolean {
  const untilLaunch = launchOf(p) - Date.now();
  return p.policyInstance.instanceType !== 'm4.large' && untilLaunch > HOUR && untilLaunch < 7 * DAY - HOUR;
}

test('the cancel dialog estimates the fee with its rule, asks for the amount typed, and the stated fee stays on the policy', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const policy = await firstWithStatus(app, 'ACTIVE', launchesWithinAWeek);
  const times = { ourPrice: policy.pricing.ourPrice, launchMs: launchOf(policy), endMs: Date.parse(policy.capacityConfiguration.endDateTime) };
  const estimate = estimateFee(SANDBOX_FEE_SCHEDULE, times, Date.now());
  expect(estimate?.percent).toBe(25);
  const shown = formatMoney(estimate?.fee, 'USD', 'en-US');

  await openDetail(page, policy.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${policy.policyName}?` });
  await expect(dialog.getByTestId('fee-estimate')).toContainText(shown);
  await expect(dialog.getByTestId('fee-rule')).toHaveText('25 %: launches in under 7 days');
  await expect(dialog.getByTestId('fee-estimate')).toContainText('An estimate');
  await expect(dialog.getByTestId('keeps-loses')).toContainText(`savings still to come: ${formatMoney(policy.pricing.savings, 'USD', 'en-US')}`);
  await expect(dialog.getByTestId('keeps-loses')).toContainText(`savings already delivered: ${formatMoney(0, 'USD', 'en-US')}`);

  // The deliberate step: off until the fee or the policy id is typed; a near miss keeps it off.
  const confirm = dialog.getByRole('button', { name: 'Cancel policy' });
  await expect(confirm).toBeDisabled();
  const field = dialog.getByLabel('Type the policy id or the fee to confirm');
  await field.fill(formatAmount((estimate?.fee ?? 0) + 1, 'en-US'));
  await expect(confirm).toBeDisabled();
  await field.press('Enter');
  expect(await requestCount(app, 'cancelCapacity')).toBe(0);
  await field.fill(formatAmount(estimate?.fee ?? 0, 'en-US'));
  await expect(confirm).toBeEnabled();
  await expectAccessible(page, 'cancel with an estimated fee', '[data-testid="cancel-dialog"]');
  await screenshot(page, 'cancel-estimate');
  await confirm.click();

  const result = page.getByRole('alertdialog', { name: 'Policy canceled' });
  const stated = parseCancellationFee((await result.locator('.service-message').textContent()) ?? '');
  // The estimate was the fee the sandbox charged.
  expect(stated).toBe(estimate?.fee);
  await expect(result.getByTestId('cancellation-fee')).toContainText(shown);
  await result.getByRole('button', { name: 'Done' }).click();

  // Kept on the policy: its pricing shows the stated fee, formatted, never the service's sentence.
  const kept = page.getByTestId('group-pricing').getByTestId('price-cancellation-fee');
  await expect(kept).toContainText(shown);
  await expect(kept).not.toContainText('canceled successfully');
  expect(await requestCount(app, 'cancelCapacity')).toBe(1);
});

test('in an environment without terms the dialog says the schedule is unknown, and amounts say once that no currency is set', async ({ openApp, app }) => {
  const handlers = otherWindow(app);
  const sandbox = (await handlers['profiles.list'](undefined))[0];
  await handlers['profiles.save']({ name: 'Partner staging', baseUrl: sandbox?.baseUrl ?? '' });
  const page = await openApp();
  await page.getByLabel('Environment').selectOption({ label: 'Partner staging' });
  await signInAs(page);
  const policy = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
  await openDetail(page, policy.cidrId);
  await expect(page.getByTestId('price-ours')).toHaveText(formatAmount(policy.pricing.ourPrice, 'en-US'));
  await expect(page.getByTestId('currency-note')).toHaveText(CURRENCY_NOT_SET_NOTE);

  await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel ${policy.policyName}?` });
  await expect(dialog.getByTestId('fee-warning')).toContainText('The fee schedule of this environment is unknown');
  await expect(dialog.getByTestId('fee-estimate')).toHaveCount(0);
  const confirm = dialog.getByRole('button', { name: 'Cancel policy' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type the policy id or the fee to confirm').fill(policy.cidrId.toUpperCase());
  await expect(confirm).toBeEnabled();
  await dialog.getByRole('button', { name: 'Keep policy' }).click();
  expect(await requestCount(app, 'cancelCapacity')).toBe(0);
});

test('an active policy compares canceling now with keeping it, and says what its end brings', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const policy = await firstWithStatus(app, 'ACTIVE', launchesWithinAWeek);
  const times = { ourPrice: policy.pricing.ourPrice, launchMs: launchOf(policy), endMs: Date.parse(policy.capacityConfiguration.endDateTime) };
  const fee = estimateFee(SANDBOX_FEE_SCHEDULE, times, Date.now())?.fee ?? Number.NaN;
  const atLaunch = estimateFee(SANDBOX_FEE_SCHEDULE, times, times.launchMs + 1)?.fee ?? Number.NaN;
  await openDetail(page, policy.cidrId);

  const compare = page.getByRole('region', { name: 'Cancel, keep or let expire' });
  await expect(compare.getByTestId('compare-fee')).toContainText(`${formatMoney(fee, 'USD', 'en-US')} (estimate · 25 %: launches in under 7 days)`);
  await expect(compare.getByTestId('compare-savings-lost')).toHaveText(`Given up: ${formatMoney(policy.pricing.savings, 'USD', 'en-US')}`);
  await expect(compare.getByTestId('compare-savings-kept')).toHaveText(`Kept: ${formatMoney(policy.pricing.savings, 'USD', 'en-US')}`);
  await expect(compare.getByTestId('compare-verdict')).toContainText(fee > policy.pricing.savings ? 'keeping costs the customer less' : 'not more than');
  await expect(compare.getByTestId('compare-next-step')).toContainText(`the fee becomes ${formatMoney(atLaunch, 'USD', 'en-US')}`);
  // Under a week before launch, the free period is behind it.
  await expect(compare.getByTestId('compare-free-until')).toHaveCount(0);
  await expect(compare.getByTestId('compare-end')).toContainText(
    policy.capacityConfiguration.autoRenewalEnabled ? 'auto-renewal renews it' : 'it expires: auto-renewal is off',
  );
  await expectAccessible(page, 'cancel / keep comparison', '[data-testid="cancel-keep-expire"]');
});
