/**
 * The app pointed at a service whose answers drift from this
 * project's OpenAPI document in every way at once (test/support/drifting-proxy.ts
 * in front of the sandbox): only required fields kept, fields a row does not
 * need dropped, unknown fields added, the "not shown" groups of the detail
 * views renamed, a list item without an id slipped in, every object reordered.
 * Every view must still show what it can (none blank, nothing thrown), the
 * differences must be visible in Help > Contract diagnostics, and a money
 * action must refuse a malformed answer with a clear message.
 */
import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import { EVERY_DRIFT, startDriftingProxy, type DriftingProxy } from '../support/drifting-proxy.js';
import type { TestApp } from '../support/test-app.js';
import { SandboxClient } from './cyber-support.js';
import { ALEX, expect, screenshot, test } from './support/capacity.js';
import { signIn } from './fixtures.js';
import { sandboxAccess } from '../support/test-app.js';

test.describe.configure({ timeout: 90_000 });

const DRIFTING = 'Drifting service';

async function pointAtDrifting(app: TestApp, page: Page, proxy: DriftingProxy): Promise<void> {
  await app.services.handlers['profiles.save']({ name: DRIFTING, baseUrl: proxy.url });
  await page.goto(app.host.newLaunchUrl());
  await page.getByLabel('Environment').selectOption({ label: DRIFTING });
  await signIn(page, ALEX.username, ALEX.password);
  await expect(page.getByTestId('signed-in-user')).toHaveText(ALEX.username);
}

/** A view is not blank: its heading shows, and no error replaced it. */
async function expectShown(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByTestId('error-message')).toHaveCount(0);
}

async function nav(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: label, exact: true }).click();
}

test('every view reads a drifting service: none blank, the odd items counted, the rest shown generically', async ({ page, app }) => {
  const proxy = await startDriftingProxy({ target: app.services.sandbox.url, plan: EVERY_DRIFT, headers: sandboxAccess(app.services) });
  try {
    const sandbox = await SandboxClient.signIn(app);
    const ready = (await sandbox.call<{ data: CapacityPolicy[] }>('listCapacities', { query: { status: 'READY_FOR_PURCHASE', pageSize: 1 } })).body.data[0]!;
    const customer = ALEX.customers[0]!.cidExt;
    const cyber = (await sandbox.call<{ data: CyberListItem[] }>('listCyberPolicies', { params: { cid_ext: customer } })).body.data;

    await pointAtDrifting(app, page, proxy);

    // Overview: the figures of every policy that has an id, and the one without counted.
    await expectShown(page, 'Overview');
    await expect(page.getByTestId('tile-launching')).toBeVisible();
    await expect(page.getByTestId('skipped-notice').first()).toContainText(/\d+ polic(y|ies) could not be shown/);

    // Capacity list: rows without names show "—"; the item without an id is counted, with details.
    await nav(page, 'Capacity policies');
    await expectShown(page, 'Capacity policies');
    const rows = page.getByTestId('capacity-table').locator('[role="row"][data-index]');
    await expect(rows.first()).toBeVisible();
    await expect(rows.first()).toContainText('—');
    const notice = page.getByTestId('skipped-notice');
    // One per answer the proxy drifted: one page read live, or every page the local copy's refresh read.
    await expect(notice).toContainText(/\d+ polic(y|ies) could not be shown/);
    await notice.getByText('Details').click();
    await expect(notice).toContainText('cidrId is missing');
    // The local copy's refresh keeps every policy with an id, and says what it could not keep.
    await expect(page.getByTestId('replica-left-out')).toContainText(/\d+ items? of the capacity list had no policy id/, { timeout: 30_000 });
    await screenshot(page, 'real-service-capacity-list');

    // Capacity detail: the designed groups that read, the renamed ones as generic sections, no money action on a guess.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to…' });
    await palette.getByRole('combobox').fill(ready.cidrId);
    await palette.getByRole('combobox').press('Enter');
    await expect(page.getByTestId('detail-cidr')).toHaveText(ready.cidrId);
    await expect(page.getByTestId('error-message')).toHaveCount(0);
    await expect(page.getByTestId('group-policy')).toBeVisible();
    await expect(page.getByTestId('generic-pricingInfo')).toContainText('Our price');
    await expect(page.getByTestId('generic-contractTerms')).toContainText('Penalty fee');
    await expect(page.getByTestId('actions-unreadable')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Purchase…' })).toHaveCount(0);
    await screenshot(page, 'real-service-capacity-detail');

    // Search: the offerings with a title show; the one without is counted.
    await nav(page, 'Search & purchase');
    await expectShown(page, /Search/);
    const form = page.getByTestId('search-form');
    await form.getByLabel('Instance type').fill(ready.policyInstance.instanceType);
    await form.getByLabel('Platform').fill(ready.policyInstance.platformCode);
    await form.getByLabel('Availability zone').fill(ready.cspRegion.availabilityZoneId);
    await form.getByLabel('Start date').fill('2027-03-01');
    await form.getByLabel('End date').fill('2027-03-20');
    await form.getByRole('button', { name: 'Search availability' }).click();
    await expect(page.getByTestId('offering').first()).toBeVisible();
    await expect(page.getByTestId('search-view').getByTestId('skipped-notice')).toContainText('1 offering could not be shown');
    await expect(page.getByTestId('ready-policy').first()).toBeVisible();

    // Linked accounts.
    await nav(page, 'Linked accounts');
    await expectShown(page, 'Linked accounts');
    await expect(page.getByTestId('account-row').first()).toBeVisible();
    await expect(page.getByTestId('skipped-notice')).toContainText('1 account could not be shown');

    // DR list and DR detail.
    await nav(page, 'Disaster recovery');
    await page.getByLabel('External customer id').fill(customer);
    await page.getByRole('button', { name: 'Show policies' }).click();
    await expect(page.getByTestId('cyber-row')).toHaveCount(cyber.length);
    await expect(page.getByTestId('skipped-notice')).toContainText('1 policy could not be shown');
    await page.getByTestId('cyber-row').first().getByRole('button').click();
    await expect(page.getByTestId('cyber-detail')).toBeVisible();
    await expect(page.getByTestId('policy-details')).toBeVisible();
    await expect(page.getByTestId('generic-pricingInfo')).toContainText('Savings percentage');
    await expect(page.getByTestId('error-message')).toHaveCount(0);

    // Help > Contract diagnostics (here through the palette): paths only, never values.
    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox').fill('Contract diagnostics');
    await palette.getByRole('combobox').press('Enter');
    const diagnostics = page.getByRole('dialog', { name: 'Contract diagnostics' });
    await expect(diagnostics.getByTestId('drift-entry').first()).toBeVisible();
    const report = await diagnostics.getByTestId('drift-report-text').inputValue();
    expect(report).toContain('listCapacities');
    expect(report).toContain('missing data[].policyName');
    expect(report).toContain('unknown field pricingInfo');
    expect(report).not.toContain(ready.cidrId);
    expect(report).not.toContain(ALEX.username);
  } finally {
    await proxy.close();
  }
});

test('a purchase whose answer is malformed is refused with a clear message, and not sent again', async ({ page, app }) => {
  // Answers otherwise drift only in harmless ways, so the detail view offers the purchase.
  const proxy = await startDriftingProxy({
    target: app.services.sandbox.url,
    headers: sandboxAccess(app.services),
    plan: { ...EVERY_DRIFT, keepOnlyRequired: false, dropFromItems: [], renameGroups: false, itemWithoutId: false },
    malformMoney: true,
  });
  try {
    const sandbox = await SandboxClient.signIn(app);
    const ready = (await sandbox.call<{ data: CapacityPolicy[] }>('listCapacities', { query: { status: 'READY_FOR_PURCHASE', pageSize: 1 } })).body.data[0]!;
    await pointAtDrifting(app, page, proxy);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to…' });
    await palette.getByRole('combobox').fill(ready.cidrId);
    await palette.getByRole('combobox').press('Enter');
    await expect(page.getByTestId('detail-cidr')).toHaveText(ready.cidrId);

    await page.getByRole('button', { name: 'Purchase…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
    await dialog.getByRole('button', { name: /^Purchase for/ }).click();
    await expect(page.getByText(/answer could not be read/).first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/not sent again/).first()).toBeVisible();
    const stats = (await (await fetch(`${app.services.sandbox.url}/sandbox/stats`, { headers: sandboxAccess(app.services) })).json()) as Record<string, number>;
    expect(stats.purchaseCapacity).toBe(1);
  } finally {
    await proxy.close();
  }
});
