import type { DeskApi } from '../../shared/ipc/api-shape.js';
import type { Page } from '@playwright/test';
import { Pricing, type CapacityPolicy } from '../../shared/api/capacity.js';
import { RULE_FOR_PEOPLE } from '../../shared/api/contract-choices.js';
import { formatFraction, formatMoney } from '../../shared/format/money.js';
import { parseWireDate } from '../../shared/format/dates.js';
import { offerings } from '../../sandbox/routes/search.js';
import {
  addFault,
  expect,
  expectAccessible,
  firstWithStatus,
  navTo,
  otherWindow,
  policiesWithStatus,
  requestCount,
  screenshot,
  test,
  testOnSharedApp,
} from './support/capacity.js';

test.describe.configure({ timeout: 60_000 });
// A zone without daylight saving, so the offset taken from the OS is known: +05:30.
test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });

const form = (page: Page) => page.getByTestId('search-form');

async function openSearch(page: Page): Promise<void> {
  await navTo(page, 'Search & purchase');
  await expect(page.getByTestId('search-view')).toBeVisible();
  await expect(page.getByTestId('ready-count')).toBeVisible();
}

async function fillSearch(page: Page, values: { instanceType: string; platform: string; zone: string; start: string; end: string }): Promise<void> {
  await form(page).getByLabel('Instance type').fill(values.instanceType);
  await form(page).getByLabel('Platform').fill(values.platform);
  await form(page).getByLabel('Availability zone').fill(values.zone);
  await form(page).getByLabel('Start date').fill(values.start);
  await form(page).getByLabel('End date').fill(values.end);
}

function fieldError(page: Page, label: string) {
  return form(page).locator('.field', { has: page.getByLabel(label) }).getByTestId('field-error');
}

testOnSharedApp('a search shows the offerings with their status; dates picked in the locale go out as MM/dd/yyyy with the OS offset', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openSearch(page);
  const sample = await firstWithStatus(app, 'READY_FOR_PURCHASE');

  await expect(form(page).getByLabel('UTC offset (hours)')).toHaveValue('5.5');
  await expect(form(page)).toContainText(/Asia\/(Kolkata|Calcutta)/);
  await fillSearch(page, {
    instanceType: sample.policyInstance.instanceType,
    platform: sample.policyInstance.platformCode,
    zone: sample.cspRegion.availabilityZoneId,
    start: '2027-03-01',
    end: '2027-03-20',
  });
  await expect(form(page)).toContainText('Sent as 03/01/2027');
  await expect(form(page)).toContainText('Sent as 03/20/2027');
  await form(page).getByRole('button', { name: 'Search availability' }).click();

  const offerings = page.getByTestId('offering');
  await expect(offerings.first()).toBeVisible();
  // The service names the window it read: the dates arrived as MM/dd/yyyy, the times carry the offset sent.
  await expect(offerings.first()).toContainText('03/01/2027 to 03/20/2027');
  await expect(offerings.first().locator('time').first()).toHaveAttribute('datetime', /\+05:30$/);
  await expect(offerings.first().getByTestId('status-badge')).toHaveAttribute('data-status', /^(AVAILABLE_ALL|AVAILABLE_PARTIAL|NOT_AVAILABLE)$/);
  expect(await requestCount(app, 'searchCapacity')).toBe(1);
  await expectAccessible(page, 'search results');
  await screenshot(page, 'search-results');
});

testOnSharedApp('an offering status the app does not know is shown exactly as it came', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await openSearch(page);
  await page.route('**/ipc/capacity.search', (route) =>
    route.fulfill({
      json: {
        ok: true,
        value: {
          items: [{ title: 'm5.large (Linux/UNIX) in use1-az1, 03/01/2027 to 03/02/2027', status: 'WAITLISTED', startDateTime: '2027-03-01T00:00:00+05:30', endDateTime: '2027-03-02T23:59:59+05:30' }],
          skipped: [],
        },
      },
    }),
  );
  await fillSearch(page, { instanceType: 'm5.large', platform: 'Linux/UNIX', zone: 'use1-az1', start: '2027-03-01', end: '2027-03-02' });
  await form(page).getByRole('button', { name: 'Search availability' }).click();
  const badge = page.getByTestId('offering').getByTestId('status-badge');
  await expect(badge).toHaveText('Availability: WAITLISTED', { useInnerText: true });
  await expect(badge).toHaveAttribute('data-status', 'WAITLISTED');
});

testOnSharedApp('an unsupported instance type is refused by the service and said next to the form', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await openSearch(page);
  await fillSearch(page, { instanceType: 'z9.mega', platform: 'Linux/UNIX', zone: 'use1-az1', start: '2027-03-01', end: '2027-03-05' });
  await form(page).getByRole('button', { name: 'Search availability' }).click();
  const error = page.getByTestId('search-error');
  await expect(error).toHaveAttribute('data-kind', 'not-found');
  await expect(error).toContainText('Instance type z9.mega with platform Linux/UNIX is not supported');
  await expect(form(page).getByLabel('Instance type')).toHaveAttribute('aria-invalid', 'true');
  await expect(form(page).getByLabel('Instance type')).toBeFocused();
  await expectAccessible(page, 'search refused');
  await screenshot(page, 'search-unsupported');

  // Issue 17, item 8: once the platform is changed, the refusal no longer stands under the fields.
  await form(page).getByLabel('Platform').fill('Windows');
  await expect(fieldError(page, 'Platform')).toHaveCount(0);
  await expect(fieldError(page, 'Instance type')).toHaveCount(0);
  await expect(form(page).getByLabel('Instance type')).not.toHaveAttribute('aria-invalid', 'true');
});

testOnSharedApp('a bad date range and missing fields are caught as the user types, and nothing is sent', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openSearch(page);
  await fillSearch(page, { instanceType: 'm5.large', platform: 'Linux/UNIX', zone: 'use1-az1', start: '2027-03-10', end: '2027-03-01' });
  await expect(fieldError(page, 'End date')).toHaveText('The end date cannot be before the start date');
  await expect(form(page).getByLabel('End date')).toHaveAttribute('aria-invalid', 'true');

  await form(page).getByLabel('End date').fill('2028-03-20');
  await expect(fieldError(page, 'End date')).toHaveText(RULE_FOR_PEOPLE.windowTooLong);
  await form(page).getByLabel('End date').fill('2028-03-09');
  await expect(fieldError(page, 'End date')).toHaveCount(0);

  await form(page).getByLabel('Instance type').fill('');
  await form(page).getByLabel('UTC offset (hours)').fill('19');
  await form(page).getByRole('button', { name: 'Search availability' }).click();
  await expect(fieldError(page, 'Instance type')).toHaveText(RULE_FOR_PEOPLE.required);
  await expect(fieldError(page, 'UTC offset (hours)')).toHaveText(RULE_FOR_PEOPLE.utcOffset);
  await expect(form(page).getByLabel('Instance type')).toBeFocused();
  expect(await requestCount(app, 'searchCapacity')).toBe(0);
  await expectAccessible(page, 'search form errors');
  await screenshot(page, 'search-errors');
});

test('purchase: price, provider price and savings are confirmed, then the purchased record is shown', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openSearch(page);
  const countBefore = Number((await page.getByTestId('ready-count').textContent())?.replace(/\D/g, ''));
  const first = page.getByTestId('ready-policy').first();
  const cidrId = (await first.getAttribute('data-cidr')) as string;
  const policy = Pricing.parse((await otherWindow(app)['capacity.describe']({ cidrId })).pricing);

  await first.getByRole('button', { name: `Purchase ${cidrId}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  // The safe choice has the focus: Enter, Enter must not buy.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(dialog.getByTestId('purchase-price')).toHaveText(formatMoney(policy.ourPrice, 'USD', 'en-US'));
  await expect(dialog.getByTestId('purchase-provider-price')).toHaveText(formatMoney(policy.cspProviderPrice, 'USD', 'en-US'));
  await expect(dialog.getByTestId('purchase-savings')).toContainText(formatMoney(policy.savings, 'USD', 'en-US'));
  await expect(dialog.getByTestId('purchase-savings')).toContainText(formatFraction(policy.savingsPercentage, 'en-US'));
  await expectAccessible(page, 'purchase confirmation', '[data-testid="purchase-dialog"]');
  await screenshot(page, 'search-purchase-confirm');

  await dialog.getByRole('button', { name: /^Purchase for/ }).dblclick();
  await expect(dialog).toBeHidden();
  const record = page.getByTestId('purchased-record');
  await expect(record).toContainText(cidrId);
  const badges = record.getByTestId('status-badge');
  await expect(badges.nth(0)).toHaveAttribute('data-status', 'ACTIVE');
  await expect(badges.nth(1)).toHaveAttribute('data-status', 'QUEUED_FOR_START');
  // Issue 29: what the service writes as "none" shows nothing, as the card's other empty fields do.
  for (const [term, value] of [['VPC', 'default'], ['Security group', ''], ['AMI', 'default'], ['Key pair', ''], ['EBS volume', '10 GB']]) {
    await expect(record.locator('div', { has: page.getByText(term as string, { exact: true }) }).locator('dd')).toHaveText(value as string);
  }
  await expect(page.locator(`[data-testid="ready-policy"][data-cidr="${cidrId}"]`)).toHaveCount(0);
  await expect(page.getByTestId('ready-count')).toHaveText((countBefore - 1).toLocaleString('en-US'));
  expect(await requestCount(app, 'purchaseCapacity')).toBe(1);
  await expectAccessible(page, 'purchased record');
  await screenshot(page, 'search-purchased');

  await record.getByRole('button', { name: 'Open and configure' }).click();
  await expect(page.getByTestId('detail-cidr')).toHaveText(cidrId);
  // Issue 29: it opens the configuration editor, not only the policy.
  const configure = page.getByTestId('configure-form');
  await expect(configure).toBeVisible();
  await expect(configure.getByRole('textbox', { name: 'VPC' })).toBeVisible();
});

test('purchase of a policy that another window bought first is refused and leaves the list', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openSearch(page);
  const first = page.getByTestId('ready-policy').first();
  const cidrId = (await first.getAttribute('data-cidr')) as string;
  const bought: CapacityPolicy = await otherWindow(app)['capacity.purchase']({ cidrId });
  expect(bought.policyStatus).toBe('ACTIVE');

  await first.getByRole('button', { name: `Purchase ${cidrId}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  await dialog.getByRole('button', { name: /^Purchase for/ }).click();
  const error = dialog.getByTestId('error-message');
  await expect(error).toHaveAttribute('data-kind', 'rejected');
  await expect(error).toContainText(`cidrId: policy ${cidrId} cannot be purchased in status ACTIVE`);
  await screenshot(page, 'search-purchase-refused');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.locator(`[data-testid="ready-policy"][data-cidr="${cidrId}"]`)).toHaveCount(0);
  await expect(page.getByTestId('purchased-record')).toHaveCount(0);
});

test('a purchase already on its way from another window locks the policy here, and is sent only once', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openSearch(page);
  const first = page.getByTestId('ready-policy').first();
  const cidrId = (await first.getAttribute('data-cidr')) as string;
  // The other window's purchase is slow to answer.
  await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/purchase', method: 'POST', latencyMs: 2500 });
  const elsewhere = otherWindow(app)['capacity.purchase']({ cidrId });

  // The main process tells every window: this window's button is off, with the reason.
  const button = first.getByRole('button', { name: `Purchase ${cidrId}` });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', 'A purchase of this policy is being sent.');
  // A call that goes around the UI joins the one request: the same answer, no second POST.
  const here = await page.evaluate((id) => (globalThis as unknown as { api: DeskApi }).api.capacity.purchase({ cidrId: id }), cidrId);
  expect(here).toMatchObject({ ok: true, value: { cidrId, policyStatus: 'ACTIVE' } });
  expect((await elsewhere).policyStatus).toBe('ACTIVE');
  expect(await requestCount(app, 'purchaseCapacity')).toBe(1);
  await expect(button).toBeEnabled();
});

/** A ready policy whose whole run the sandbox offers free, searched from its launch day to its end day. */
async function readyPolicyWhollyOffered(app: Parameters<typeof otherWindow>[0]) {
  const ready = await policiesWithStatus(app, 'READY_FOR_PURCHASE');
  for (const policy of ready) {
    const launch = policy.capacityConfiguration.launchDateTime.slice(0, 10);
    const end = policy.capacityConfiguration.endDateTime.slice(0, 10);
    if (launch <= '2026-11-30' || Date.parse(end) - Date.parse(launch) > 300 * 86_400_000) continue;
    const [whole] = offerings(
      policy.policyInstance.instanceType,
      policy.policyInstance.platformCode,
      policy.cspRegion.availabilityZoneId,
      parseWireDate(toWire(launch))!,
      parseWireDate(toWire(end))!,
      0,
    );
    if (whole?.status === 'AVAILABLE_ALL') return { policy, start: launch, end };
  }
  throw new Error('no ready policy whose run is wholly offered in the seeded sandbox');
}

function toWire(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${m}/${d}/${y}`;
}

testOnSharedApp('the search narrows the ready policies to what was searched and puts each fit, with its price, beside its offering', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openSearch(page);
  const everyReady = Number((await page.getByTestId('ready-count').textContent())?.replace(/\D/g, ''));
  const { policy, start, end } = await readyPolicyWhollyOffered(app);

  await form(page).getByLabel('UTC offset (hours)').fill('0');
  await fillSearch(page, { instanceType: policy.policyInstance.instanceType, platform: policy.policyInstance.platformCode, zone: policy.cspRegion.availabilityZoneId, start, end });
  await form(page).getByRole('button', { name: 'Search availability' }).click();
  await expect(page.getByTestId('offering').first()).toBeVisible();

  // The panel holds only the policies of this instance type, platform and zone (answered by the local copy).
  const panel = page.getByTestId('ready-panel');
  await expect(panel.getByTestId('ready-narrowed')).toContainText('Only those matching your search', { timeout: 30_000 });
  const narrowed = Number((await panel.getByTestId('ready-count').textContent())?.replace(/\D/g, ''));
  expect(narrowed).toBeGreaterThan(0);
  expect(narrowed).toBeLessThan(everyReady);
  for (const row of await panel.getByTestId('ready-policy').all()) {
    await expect(row).toContainText(policy.policyInstance.instanceType);
    await expect(row).toContainText(policy.cspRegion.availabilityZoneId);
  }

  // Beside the wholly free offering: the policy that fits it, with its price and a purchase that confirms first.
  const fit = page.getByTestId('offering').first().locator(`[data-testid="offering-fit"][data-cidr="${policy.cidrId}"]`);
  await expect(fit).toContainText(formatMoney(policy.pricing.ourPrice, 'USD', 'en-US'));
  await fit.getByRole('button', { name: `Purchase ${policy.cidrId}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await requestCount(app, 'purchaseCapacity')).toBe(0);

  // The offerings on a time axis against the window asked for.
  const timeline = page.getByTestId('offerings-timeline');
  await expect(timeline.getByTestId('timeline-requested')).toHaveCount(1);
  await expect(timeline.getByTestId('timeline-bar')).toHaveCount(await page.getByTestId('offering').count());
  await expectAccessible(page, 'search results with fits and timeline');
  await screenshot(page, 'search-fits-timeline');

  // Every ready policy again, on request.
  await panel.getByRole('button', { name: 'Show all ready policies' }).click();
  await expect(panel.getByTestId('ready-count')).toHaveText(everyReady.toLocaleString('en-US'));
});

test.describe('a search made in another offset than the computer', () => {
  test.use({ timezoneId: 'America/Sao_Paulo' });

  testOnSharedApp('its times are read in the offset of the search, and the offset is named', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    await openSearch(page);
    const sample = await firstWithStatus(app, 'READY_FOR_PURCHASE');
    await form(page).getByLabel('UTC offset (hours)').fill('5.5');
    await fillSearch(page, { instanceType: sample.policyInstance.instanceType, platform: sample.policyInstance.platformCode, zone: sample.cspRegion.availabilityZoneId, start: '2027-03-01', end: '2027-03-20' });
    await form(page).getByRole('button', { name: 'Search availability' }).click();
    const first = page.getByTestId('offering').first();
    await expect(first.locator('time').first()).toHaveAttribute('datetime', '2027-03-01T00:00:00+05:30');
    // Midnight at +05:30, not 3:30 PM the day before as this computer (UTC-03:00) would read it.
    await expect(first.locator('time').first()).toHaveText('Mar 1, 2027, 12:00 AM');
    await expect(page.getByTestId('offerings-zone')).toHaveText('Times in UTC+05:30, the offset of your search.');
    await expect(page.getByTestId('offerings-timeline')).toContainText('UTC+05:30');
  });
});
