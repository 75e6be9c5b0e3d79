import type { Page } from '@playwright/test';
import type { CyberListItem } from '../../shared/api/cyber.js';
import type { DeskApi } from '../../shared/ipc/api-shape.js';
import type { TestApp } from '../support/test-app.js';
import { ALEX, SandboxClient, addFault, expectAccessible, showCustomer, sandboxStats, screenshot } from './cyber-support.js';
import { expect, test } from './fixtures.js';

const CUSTOMER = ALEX.customers[0]!.cidExt;

/** Policies of the customer with no termination event yet. */
async function untouchedPolicies(app: TestApp): Promise<CyberListItem[]> {
  const sandbox = await SandboxClient.signIn(app);
  const untouched = (await sandbox.allCyber(CUSTOMER)).filter((item) => item.terminationTriggered === false);
  expect(untouched.length).toBeGreaterThan(2);
  return untouched;
}

/** Opens a policy from the DR list, as a person would. */
async function openPolicy(page: Page, policy: CyberListItem): Promise<void> {
  await showCustomer(page, CUSTOMER);
  await page.getByLabel('Policy name').fill(policy.policyName);
  await page.locator(`[data-cidr-id="${policy.cidrId}"]`).getByRole('button', { name: policy.policyName }).click();
  await expect(page.getByRole('heading', { name: policy.policyName, level: 1 })).toBeVisible();
}

test('terminate: 201 creates the event, a second window then gets 200 "already triggered"; the timeline shows it', async ({ openSignedIn, app, context }) => {
  // Two windows, six axe runs and three screenshots: past the default 30 s at load 25-30 (it timed out there twice, inside axe).
  test.setTimeout(90_000);
  const page = await openSignedIn();
  const [policy] = await untouchedPolicies(app);
  await openPolicy(page, policy!);

  // A second window of the same app, on the same policy, loaded before anything happens.
  const second = await context.newPage();
  await second.goto(app.host.origin);
  await expect(second.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await openPolicy(second, policy!);

  const eventsBefore = await page.getByTestId('dr-event').count();
  await page.getByTestId('terminate').click();
  const dialog = page.getByTestId('terminate-dialog');
  await expect(dialog.getByRole('heading', { name: 'Trigger DR termination event' })).toBeVisible();
  const confirm = dialog.getByTestId('confirm-terminate');
  const typed = dialog.getByLabel('Type the policy id or name to confirm');
  // The safe choice has the focus; the field is one Tab or click away.
  await expect(dialog.getByRole('button', { name: 'Keep the policy as it is' })).toBeFocused();
  await expect(confirm).toBeDisabled();
  // It says what termination does and what the customer loses, before anything is typed.
  await expect(dialog).toContainText('starts the end of this disaster-recovery policy');
  const loses = dialog.getByRole('list', { name: 'What the customer loses once it is terminated:' });
  await expect(loses.getByRole('listitem')).toHaveCount(2);
  await expect(loses).toContainText('fail over to the recovery region');
  await typed.fill(`${policy!.cidrId}x`);
  await expect(confirm).toBeDisabled();
  await typed.fill(policy!.cidrId);
  await expect(confirm).toBeEnabled();
  await expectAccessible(page, 'terminate dialog');
  await screenshot(page, 'cyber-terminate-dialog');
  await confirm.click();

  const outcome = page.getByTestId('terminate-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'created');
  await expect(outcome).toContainText('Termination event created');
  // People's words, not the backend's.
  await expect(outcome).not.toContainText('Event row created');
  await expect(outcome).toContainText('disaster-recovery protection is now being ended');
  const eventId = (await outcome.getByTestId('terminate-event-id').innerText()).replace('#', '');
  expect(Number(eventId)).toBeGreaterThan(0);
  // The timeline was fetched again and holds the new event, marked as new.
  const created = page.locator(`[data-testid="dr-event"][data-event-id="${eventId}"]`);
  await expect(created).toHaveAttribute('data-event-type', 'TERMINATION');
  await expect(created).toContainText('New');
  await expect(page.getByTestId('dr-event')).toHaveCount(eventsBefore + 1);
  await expect(page.getByTestId('termination-state')).toContainText(`event #${eventId}`);
  await expect(page.getByTestId('terminate')).toHaveCount(0);
  expect((await sandboxStats(app)).terminateCyberEvent).toBe(1);
  await expectAccessible(page, 'terminate outcome 201');
  await screenshot(page, 'cyber-detail-terminated');

  // The second window still shows the button: it learns the event already exists.
  await second.getByTestId('terminate').click();
  const secondDialog = second.getByTestId('terminate-dialog');
  // The name works too, in any letter case.
  await secondDialog.getByLabel('Type the policy id or name to confirm').fill(policy!.policyName.toUpperCase());
  await secondDialog.getByTestId('confirm-terminate').click();
  const secondOutcome = second.getByTestId('terminate-outcome');
  await expect(secondOutcome).toHaveAttribute('data-outcome', 'already-triggered');
  await expect(secondOutcome).toContainText('A termination event was already triggered');
  await expect(secondOutcome).toContainText('no new one was created');
  await expect(secondOutcome).not.toContainText('The service said');
  await expect(second.locator(`[data-testid="dr-event"][data-event-id="${eventId}"]`)).toHaveAttribute('data-event-type', 'TERMINATION');
  await expect(second.getByTestId('dr-event')).toHaveCount(eventsBefore + 1);
  expect((await sandboxStats(app)).terminateCyberEvent).toBe(2);
  await expectAccessible(second, 'terminate outcome 200');
  await screenshot(second, 'cyber-detail-already-triggered');
});

test('a double click on the confirmation sends one request; so do two concurrent calls to the main process', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const [first, second] = await untouchedPolicies(app);
  // A slow service keeps the first request in flight while the second arrives.
  await addFault(app, { pathPrefix: '/external/api/v1/policies/cyber/terminate/', latencyMs: 700 });
  await openPolicy(page, first!);

  await page.getByTestId('terminate').click();
  const dialog = page.getByTestId('terminate-dialog');
  await dialog.getByLabel('Type the policy id or name to confirm').fill(first!.cidrId);
  const confirm = dialog.getByTestId('confirm-terminate');
  await confirm.dblclick();
  await expect(confirm).toBeDisabled();
  await expect(confirm).toHaveText('Sending…');
  // While in flight the dialog cannot be dismissed either.
  await page.keyboard.press('Escape');
  await expect(dialog.getByRole('heading', { name: 'Trigger DR termination event' })).toBeVisible();
  await expect(page.getByTestId('terminate-outcome')).toHaveAttribute('data-outcome', 'created');
  expect((await sandboxStats(app)).terminateCyberEvent).toBe(1);

  // Around the UI: two calls at once straight to the main process; the second joins the one request.
  const results = await page.evaluate(
    (cidrId) => {
      const { api } = globalThis as unknown as { api: DeskApi };
      return Promise.all([api.cyber.terminate({ cidrId }), api.cyber.terminate({ cidrId })]);
    },
    second!.cidrId,
  );
  const kinds = results.map((result) => (result.ok ? result.value.outcome : result.error.kind));
  expect(kinds).toEqual(['created', 'created']);
  expect(results[1]).toEqual(results[0]);
  expect((await sandboxStats(app)).terminateCyberEvent).toBe(2);
});

test('a policy terminated before shows when, and offers no second termination', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const sandbox = await SandboxClient.signIn(app);
  const terminated = (await sandbox.allCyber(CUSTOMER)).find((item) => item.terminationTriggered === true);
  expect(terminated).toBeDefined();
  await openPolicy(page, terminated!);
  await expect(page.getByTestId('termination-state')).toContainText('DR termination triggered');
  await expect(page.getByTestId('terminate')).toHaveCount(0);
  await expect(page.locator('[data-testid="dr-event"][data-event-type="TERMINATION"]')).toHaveCount(1);
});

test('the policy view shows every group, and is accessible in light and dark', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const sandbox = await SandboxClient.signIn(app);
  const withEvents = (await sandbox.allCyber(CUSTOMER, { status: 'ACTIVE' }))[0]!;
  await openPolicy(page, withEvents);
  const { body: view } = await sandbox.call<{
    regionSettings: { primary: { regionCode: string }; recovery: { regionCode: string } };
    instances: unknown[];
    disasterRecoveryEvents: unknown[];
  }>('viewCyberPolicy', { params: { cidr_id: withEvents.cidrId } });

  for (const title of ['Policy details', 'Dates', 'Pricing', 'Region settings', 'Instances', 'Disaster-recovery events'])
    await expect(page.getByRole('heading', { name: new RegExp(`^${title}`), level: 2 })).toBeVisible();
  const regions = page.getByTestId('region-settings');
  await expect(regions.getByRole('region', { name: 'Primary region' })).toContainText(view.regionSettings.primary.regionCode);
  await expect(regions.getByRole('region', { name: 'Recovery region' })).toContainText(view.regionSettings.recovery.regionCode);
  await expect(page.getByTestId('instances-table').locator('tbody tr')).toHaveCount(view.instances.length);
  await expect(page.getByTestId('dr-event')).toHaveCount(view.disasterRecoveryEvents.length);

  await expectAccessible(page, 'DR policy view');
  await screenshot(page, 'cyber-detail');
  await screenshot(page, 'cyber-detail', 'dark');
});
