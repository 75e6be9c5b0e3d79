import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { CapacityPolicy } from '../../shared/api/capacity.js';
import { DEFAULT_RETRY_POLICY } from '../../electron/services/api-client/retry-policy.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { addFault, clearFaults } from './cyber-support.js';
import { expect, openAccountMenu, signIn, test, testOnSharedApp } from './fixtures.js';
import { nextRefreshEnd } from '../support/copy-refresh.js';
import { flipByte } from '../support/flip-byte.js';
import { listFromOtherWindow, requestCount, sandboxControl, typeCancelConfirmation } from './support/capacity.js';

/**
 * Issue 15: one app over the encrypted local replica. Every view answers from
 * it once it is filled (after sign-in, in the background), says how old it is,
 * and keeps working when the service goes away.
 */
const alex = SANDBOX_USERS[0]!;
const table = (page: Page) => page.getByTestId('capacity-table');
const rows = (page: Page) => table(page).locator('[role="row"][data-index]');
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** The app's retry of a read, its waits a tenth as long: a test of a service that refuses waits out less. */
const QUICK_RETRY = { ...DEFAULT_RETRY_POLICY, baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs / 10 };

/** The status area says the local copy is there (filled in the background after sign-in). */
async function replicaReady(page: Page): Promise<void> {
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
}

async function openCapacityList(page: Page): Promise<void> {
  await nav(page).getByRole('button', { name: 'Capacity policies', exact: true }).click();
  await expect(page.getByTestId('capacity-list-view')).toBeVisible();
}

// Reads only, the sort and search kept in the views' state that the shared app puts back: the worker's app, its
// copy filled (the app has no timed refresh by default: offlineRefreshMinutes 0), its request counts reset here.
testOnSharedApp('search and sort on the list are answered by the local copy: the service sees no list request', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await replicaReady(page);
  await sandboxControl(app, 'POST', '/stats/reset');

  await openCapacityList(page);
  await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
  await expect(page.getByTestId('source-line')).toContainText('from the local copy, updated');

  // Free text over id, name, account, instance type and zone.
  const all = (await listFromOtherWindow(app, { limit: 500 })).rows.map((row) => CapacityPolicy.parse(row));
  const target = all[Math.floor(all.length / 2)]!;
  const search = page.getByRole('searchbox', { name: 'Search policies' });
  await search.fill(target.policyName);
  await expect(rows(page).filter({ hasText: target.cidrId })).toHaveCount(1);
  for (const text of await rows(page).allTextContents()) expect(text.toLowerCase()).toContain(target.policyName.toLowerCase());
  await search.fill(target.cidrId);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByTestId('list-summary')).toContainText(`1 policy`);

  // Sort by any column: the most expensive first.
  await search.fill('');
  const price = page.getByTestId('capacity-table').getByRole('columnheader', { name: /Our price/ });
  await price.getByRole('button').click();
  await expect(price).toHaveAttribute('aria-sort', 'descending');
  const dearest = [...all].sort((a, b) => b.pricing.ourPrice - a.pricing.ourPrice)[0]!;
  await expect(rows(page).first()).toContainText(dearest.cidrId);
  // The keyboard sorts too: the header's button takes Enter.
  await price.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(price).toHaveAttribute('aria-sort', 'ascending');
  const cheapest = [...all].sort((a, b) => a.pricing.ourPrice - b.pricing.ourPrice)[0]!;
  await expect(rows(page).first()).toContainText(cheapest.cidrId);

  expect(await requestCount(app, 'listCapacities')).toBe(0);
});

test('an action is written through at once: the canceled policy shows in the list and the overview without a refresh', async ({ openApp, app }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  await replicaReady(page);
  const active = (await listFromOtherWindow(app, { status: 'ACTIVE', limit: 100 })).rows.map((row) => CapacityPolicy.parse(row));
  const policy = active.find((p) => p.pricing.creditCardProcessingFee !== null) ?? active[0]!;
  const overviewBefore = await app.services.handlers['overview.summary'](undefined);
  const canceledBefore = overviewBefore.byStatus.find((s) => s.status === 'CANCELED')?.count ?? 0;

  await openCapacityList(page);
  await page.getByRole('searchbox', { name: 'Search policies' }).fill(policy.cidrId);
  // The previous rows stay on screen until the search's answer replaces them: the row clicked is the one searched for
  // (a fresh-clone run at load 10-17 clicked the newest policy, still first while the answer was on its way).
  await rows(page).filter({ hasText: policy.cidrId }).first().click();
  await expect(page.getByTestId('detail-cidr')).toHaveText(policy.cidrId);
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
  const cancelDialog = page.getByRole('alertdialog', { name: `Cancel ${policy.policyName}?` });
  await typeCancelConfirmation(cancelDialog, policy.cidrId);
  await cancelDialog.getByRole('button', { name: 'Cancel policy' }).click();
  await page.getByRole('alertdialog', { name: 'Policy canceled' }).getByRole('button', { name: 'Done' }).click();

  await sandboxControl(app, 'POST', '/stats/reset');
  await openCapacityList(page);
  await page.getByTestId('status-filter').getByRole('radio', { name: 'Canceled' }).check();
  await expect(rows(page).filter({ hasText: policy.cidrId })).toHaveCount(1);
  await nav(page).getByRole('button', { name: 'Overview', exact: true }).click();
  await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
  const overviewAfter = await app.services.handlers['overview.summary'](undefined);
  expect(overviewAfter.origin.source).toBe('replica');
  expect(overviewAfter.byStatus.find((s) => s.status === 'CANCELED')?.count).toBe(canceledBefore + 1);
  // Neither the list nor the overview asked the service for the list again.
  expect(await requestCount(app, 'listCapacities')).toBe(0);
});

test('working offline by choice asks nothing of the service, and back online', async ({ openApp, app }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  await replicaReady(page);
  await page.getByTestId('work-offline').click();
  await expect(page.getByTestId('offline-banner')).toContainText('You chose to work offline');
  await sandboxControl(app, 'POST', '/stats/reset');
  await openCapacityList(page);
  await page.getByTestId('status-filter').getByRole('radio', { name: 'Active' }).check();
  await expect(rows(page).first()).toContainText(/active/i);
  // A money action off looks off: the disabled cancel is drawn as a plain disabled button, not a paler red one.
  await rows(page).first().getByRole('checkbox').click();
  const selection = page.getByRole('toolbar', { name: 'Selected policies' });
  const cancel = selection.getByRole('button', { name: 'Cancel policies…' });
  await expect(cancel).toBeDisabled();
  const look = (button: typeof cancel) =>
    button.evaluate((element) => {
      const style = element.ownerDocument.defaultView!.getComputedStyle(element);
      return `${style.backgroundColor} ${style.color}`;
    });
  expect(await look(cancel)).toBe(await look(selection.getByRole('button', { name: 'Turn auto-renewal off…' })));
  await selection.getByRole('button', { name: 'Clear selection' }).click();
  await nav(page).getByRole('button', { name: 'Linked accounts', exact: true }).click();
  await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
  const stats = await sandboxControl<Record<string, number>>(app, 'GET', '/stats');
  expect(Object.values(stats).reduce((a, b) => a + b, 0)).toBe(0);
  await page.getByRole('button', { name: 'Go back online' }).first().click();
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('offline, the DR policies of a remembered customer are still there, from the copy, with termination off', async ({ openApp, app }) => {
  const page = await openApp();
  await signIn(page, alex.username, alex.password);
  await replicaReady(page);
  const customer = alex.customers[0]!.cidExt;
  await nav(page).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
  await page.getByLabel('External customer id').fill(customer);
  await page.getByRole('button', { name: 'Show policies' }).click();
  const live = page.getByTestId('cyber-row');
  await expect(live.first()).toBeVisible();
  const count = await live.count();
  // The customer is remembered now, so the next refresh keeps its DR policies.
  await page.getByTestId('replica-refresh').click();
  await app.services.replica.refresh.run();
  await replicaReady(page);

  await page.getByTestId('work-offline').click();
  await expect(page.getByTestId('offline-banner')).toContainText('You chose to work offline');
  await nav(page).getByRole('button', { name: 'Overview', exact: true }).click();
  await nav(page).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
  await expect(page.getByTestId('cyber-row')).toHaveCount(count);
  await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
  await page.getByTestId('cyber-row').first().click();
  await expect(page.getByTestId('actions-offline')).toContainText('DR termination needs the service');
  await expect(page.getByTestId('terminate')).toHaveCount(0);
});

// Their reads are refused: each is tried again as the app does (the default's attempts), after a tenth of its waits.
test.describe('reads tried again with short waits', () => {
  test.use({ appOptions: { http: { retry: QUICK_RETRY } } });

  test('an offline copy damaged on disk, with the service down: the user is told it could not be read, how old it was and what was lost, and a fresh sync replaces it', async ({ openApp, app }) => {
    // Two syncs, the service's refusals tried again and the notice: 13 s a run at load 10 here, and a fresh-clone
    // run at load 11-17 ran out of the default 30 s in the second sync (as the test below, its own budget).
    test.setTimeout(90_000);
    const page = await openApp();
    await signIn(page, alex.username, alex.password);
    await replicaReady(page);
    const held = (await app.services.handlers['capacity.list']({ limit: 1, offset: 0, text: '', sortBy: 'createdDate', sortOrder: 'desc' })).total;
    // The first sync's checkpoint (on its thread) is over: a change made while one runs is taken for the
    // checkpoint's own (docs/local-first.md, "what a checkpoint hides"); this test is about a change after.
    await (await app.services.replica.replica())?.settled();

    // A byte of the copy flips on disk while the app runs, then the service goes away. In place, as a failing disk
    // does: a whole file written again is cut to nothing first, and a read meanwhile meets a copy cut short.
    const replicas = (await readdir(join(app.dataDir, 'cache'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && e.name === 'replica.db')
      .map((e) => join(e.parentPath, e.name));
    expect(replicas.length, 'the copy is on disk (run under scripts/with-keychain.sh)').toBe(1);
    await flipByte(replicas[0]!, 0.5);
    await addFault(app, { dropRate: 1 });

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Overview' }).click();
    await nav.getByRole('button', { name: 'Capacity policies' }).click();

    const notice = page.getByRole('alert').filter({ hasText: 'Your offline copy could not be read' });
    // The refused reads are tried again before the notice: two fresh-clone runs at load 10-17 passed 15 s here.
    await expect(notice).toBeVisible({ timeout: 45_000 });
    await expect(notice).toContainText('it was damaged or changed on disk');
    await expect(notice).toContainText(`It held ${held.toLocaleString('en-US')} policies, last updated`);
    await expect(notice.locator('time')).toHaveText(/now|second|minute/);
    await expect(notice).toContainText('Nothing from it will be shown.');
    await expect(notice).toContainText('The service cannot be reached either');
    // Nothing of the copy is shown: the app does not switch to it.
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);

    // The service is back: a fresh sync replaces the copy, and the notice goes.
    await clearFaults(app);
    await notice.getByRole('button', { name: 'Sync a fresh copy' }).click();
    await replicaReady(page);
    await expect(notice).toHaveCount(0);
  });

  test('the service stops mid-session: the same views stay, actions are off, the age is shown; back online they refresh', async ({ openApp, app }) => {
    test.setTimeout(90_000);
    const page = await openApp();
    await signIn(page, alex.username, alex.password);
    await replicaReady(page);
    const active = CapacityPolicy.parse((await listFromOtherWindow(app, { status: 'ACTIVE', limit: 1 })).rows[0]);

    // The service goes away (every connection dropped).
    await addFault(app, { dropRate: 1 });
    await openCapacityList(page);
    await page.getByRole('searchbox', { name: 'Search policies' }).fill(active.cidrId);
    await rows(page).filter({ hasText: active.cidrId }).first().click();
    await expect(page.getByTestId('detail-cidr')).toHaveText(active.cidrId, { timeout: 20_000 });
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
    await expect(page.getByTestId('actions-offline')).toContainText('cannot be reached');
    await expect(page.getByTestId('policy-actions').getByRole('button', { name: /Cancel policy|Purchase/ })).toHaveCount(0);
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toContainText('cannot be reached');
    await expect(page.getByTestId('offline-age')).toHaveText(/now|minute|second/);

    // The overview and the list keep answering from the copy; search and purchase need the service.
    await nav(page).getByRole('button', { name: 'Overview', exact: true }).click();
    await expect(page.getByTestId('source-line')).toContainText('from the local copy');
    await nav(page).getByRole('button', { name: 'Search & purchase', exact: true }).click();
    await expect(page.getByTestId('needs-service')).toBeVisible();
    // The ready policies the copy holds are still shown; buying one waits for the service.
    await expect(page.getByTestId('ready-policy').first()).toBeVisible();
    await expect(page.getByTestId('purchase-needs-service').first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^Purchase sc_/ })).toHaveCount(0);

    // Back on the policy when the service returns: one moment of coming back, nothing more to click.
    await page.getByTestId('ready-policy').first().getByRole('button', { name: /^Open / }).click();
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
    await clearFaults(app);
    await banner.getByRole('button', { name: 'Check connection' }).click();
    await expect(banner).toHaveCount(0);
    // The open view read again: live, its offline note gone, its actions back, no old error left in the status area.
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'service');
    await expect(page.getByTestId('actions-offline')).toHaveCount(0);
    await expect(page.getByTestId('policy-actions').getByRole('button', { name: /Purchase/ })).toBeVisible();
    await expect(page.getByTestId('replica-error')).toHaveCount(0);
    await expect(page.getByText(/service cannot be reached|UND_ERR|ECONN/)).toHaveCount(0);
    await nav(page).getByRole('button', { name: 'Linked accounts', exact: true }).click();
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'service');
  });

  test('before the local copy is ready the list pages the service and says so; then it answers locally', async ({ openApp, app }) => {
    const page = await openApp();
    // The fill after sign-in cannot read the list yet.
    await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacities', errorRate: 1, errorStatus: 503 });
    const fillEnded = nextRefreshEnd(app.services.events);
    await signIn(page, alex.username, alex.password);
    // The faults stay until that fill has ended (not for a time): cleared earlier, it could still fill the copy.
    expect((await fillEnded).phase).toBe('failed');
    await clearFaults(app);
    await openCapacityList(page);
    await expect(page.getByTestId('list-paged-live')).toBeVisible();
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'service');
    await expect(page.getByRole('searchbox', { name: 'Search policies' })).toBeDisabled();

    // A refresh from the status area fills the copy, and the list answers from it without being asked again.
    await page.getByTestId('replica-refresh').click();
    await replicaReady(page);
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
    await expect(page.getByTestId('list-paged-live')).toHaveCount(0);
    await expect(page.getByRole('searchbox', { name: 'Search policies' })).toBeEnabled();
  });

  test('the service goes away a minute after a DR list was read: the list is kept and shown with its age, with one message', async ({ openApp, app }) => {
    test.setTimeout(120_000);
    const page = await openApp();
    await signIn(page, alex.username, alex.password);
    await replicaReady(page);
    // A customer read only now (after the copy's refresh): no sync kept its list.
    const customer = alex.customers[1]!.cidExt;
    await nav(page).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
    await page.getByLabel('External customer id').fill(customer);
    await page.getByRole('button', { name: 'Show policies' }).click();
    await expect(page.getByTestId('cyber-row').first()).toBeVisible();
    const count = await page.getByTestId('cyber-row').count();

    await addFault(app, { dropRate: 1 });
    await nav(page).getByRole('button', { name: 'Overview', exact: true }).click();
    await nav(page).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
    await expect(page.getByTestId('cyber-row')).toHaveCount(count, { timeout: 20_000 });
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
    await expect(page.getByText(/not in the local copy|Check the id for typos|live from the service/)).toHaveCount(0);

    // A customer never read: said once, as a matter of the service being away, not as an unknown customer.
    await page.getByLabel('External customer id').fill('CUST-9999');
    await page.getByRole('button', { name: 'Show policies' }).click();
    // Reads are tried again a few times before the copy is asked: allow for those.
    await expect(page.getByText('The service cannot be reached', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(/Check the id for typos|No customer/)).toHaveCount(0);
    await expect(page.getByTestId('source-line')).toHaveCount(0);
    await clearFaults(app);
  });
});

test('no network at sign-in: the last user reviews the local copy without signing in', async ({ openApp, app, page }) => {
  await openApp();
  await signIn(page, alex.username, alex.password);
  await replicaReady(page);
  await openAccountMenu(page);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();

  await app.services.sandbox.close();
  await page.getByTestId('review-offline').click();
  await expect(page.getByTestId('offline-banner')).toContainText('Reviewing offline without signing in');
  await openCapacityList(page);
  await expect(rows(page).first()).toContainText(/sc_\d+/);
  await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
  await openAccountMenu(page);
  await page.getByRole('button', { name: 'Leave offline review' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
});

test('background refresh of the offline copy is chosen in Preferences and kept', async ({ openApp, app, page }) => {
  await openApp();
  await signIn(page, alex.username, alex.password);
  await openAccountMenu(page);
  await page.getByTestId('open-preferences').click();
  await page.getByTestId('pref-offline-refresh').selectOption('60');
  await expect.poll(async () => (await app.services.handlers['preferences.get'](undefined)).offlineRefreshMinutes).toBe(60);
  await page.keyboard.press('Escape');
  await page.reload();
  await openAccountMenu(page);
  await page.getByTestId('open-preferences').click();
  await expect(page.getByTestId('pref-offline-refresh')).toHaveValue('60');
});

test.describe('without a system keychain', () => {
  test.use({ appOptions: { secrets: new MemorySecretStore('no keychain in this test') } });

  test('the copy lives in memory: it says so, works offline in the session, and is not offered for review after sign-out', async ({ openApp }) => {
    const page = await openApp();
    await signIn(page, alex.username, alex.password);
    await replicaReady(page);
    // Said once, in the view's freshness indicator (issue 29), whose details open on a click.
    const indicator = page.getByTestId('freshness-indicator');
    await indicator.getByRole('button').click();
    const notice = indicator.getByTestId('keychain-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Session not saved.');
    await expect(notice).toContainText('kept in memory only');
    await expect(page.getByTestId('keychain-notice')).toHaveCount(1);
    await page.getByTestId('work-offline').click();
    await expect(page.getByTestId('offline-banner')).toContainText('You chose to work offline');
    await openCapacityList(page);
    await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', 'replica');
    await page.getByRole('button', { name: 'Go back online' }).first().click();

    await openAccountMenu(page);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
    await expect(page.getByTestId('review-offline')).toHaveCount(0);
  });
});

test.describe('a service that swallows requests (no answer, no refusal)', () => {
  test.use({ appOptions: { http: { timeouts: { connectMs: 2_000, headersMs: 1_500, bodyMs: 1_500 } } } });

  test('one read waits for the timeout; the next ones answer from the copy at once, asking nothing; "Check connection" reopens the live path', async ({ openApp, app }) => {
    const page = await openApp();
    await signIn(page, alex.username, alex.password);
    await replicaReady(page);
    const [first, second] = (await listFromOtherWindow(app, { status: 'ACTIVE', limit: 2 })).rows.map((row) => CapacityPolicy.parse(row));
    const openPolicy = async (cidrId: string, source: 'replica' | 'service' = 'replica') => {
      await openCapacityList(page);
      await page.getByRole('searchbox', { name: 'Search policies' }).fill(cidrId);
      await rows(page).filter({ hasText: cidrId }).first().click();
      await expect(page.getByTestId('detail-cidr')).toHaveText(cidrId, { timeout: 20_000 });
      await expect(page.getByTestId('source-line')).toHaveAttribute('data-source', source);
    };

    // Every request is held far beyond the client's timeout.
    await addFault(app, { latencyMs: 20_000 });
    await openPolicy(first!.cidrId);
    await sandboxControl(app, 'POST', '/stats/reset');
    await openPolicy(second!.cidrId);
    // Answered from the copy without another timeout: the service was not asked at all.
    expect(await requestCount(app, 'describeCapacity')).toBe(0);

    await clearFaults(app);
    const banner = page.getByTestId('offline-banner');
    await banner.getByRole('button', { name: 'Check connection' }).click();
    await expect(banner).toHaveCount(0);
    await openPolicy(first!.cidrId, 'service');
  });
});
