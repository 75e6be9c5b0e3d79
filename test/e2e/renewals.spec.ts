import type { Page } from '@playwright/test';
import { WorklistQuery, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { expect, navTo, otherWindow, signInAs, test } from './support/capacity.js';

/**
 * Issue 28: the renewal worklist, across every customer, from the local copy,
 * with the account manager's own state per policy.
 */
const worklistRows = (page: Page) => page.getByTestId('worklist-table').locator('tbody tr');

async function replicaReady(page: Page): Promise<void> {
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
}

async function worklistFromOtherWindow(app: Parameters<typeof otherWindow>[0], query: Record<string, unknown>): Promise<WorklistWindow> {
  return otherWindow(app)['worklist.query'](WorklistQuery.parse(query));
}

test('the worklist lists what launches or ends soon, soonest end first, and keeps each policy’s state', async ({ openApp, app }) => {
  const page = await openApp();
  await signInAs(page);
  await replicaReady(page);

  // From the overview's tiles.
  await page.getByTestId('tile-ending').getByRole('button', { name: 'Open in the renewal worklist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Renewals' })).toBeVisible();
  await expect(page.getByTestId('source-line')).toContainText('from the local copy');

  const expected = await worklistFromOtherWindow(app, { horizonDays: 30, limit: 500 });
  expect(expected.total).toBeGreaterThan(1);
  await expect(page.getByTestId('worklist-count')).toHaveText(`${expected.total} ${expected.total === 1 ? 'policy' : 'policies'}`);
  const shownIds = await worklistRows(page).evaluateAll((rows) => rows.map((row) => row.getAttribute('data-cidr-id')));
  expect(shownIds).toEqual(expected.rows.map((row) => row.policy.cidrId));

  // A wider horizon holds at least as many.
  await page.getByRole('radio', { name: '90 days' }).check();
  const wider = await worklistFromOtherWindow(app, { horizonDays: 90, limit: 500 });
  await expect(worklistRows(page)).toHaveCount(Math.min(wider.total, 200));

  // The state of one policy, then the filter by state.
  const first = wider.rows[0]!;
  const name = first.policy.policyName ?? first.policy.cidrId;
  await page.getByLabel(`State of ${name}`, { exact: true }).first().selectOption('contacted');
  await page.getByLabel('Filter by state').selectOption('contacted');
  await expect(worklistRows(page)).toHaveCount(1);
  await expect(worklistRows(page).first()).toHaveAttribute('data-cidr-id', first.policy.cidrId);

  // A note, kept with the state.
  await page.getByRole('button', { name: `Note and snooze for ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: /Note and snooze/ });
  await dialog.getByLabel('Note').fill('Called the customer: back on Tuesday');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(worklistRows(page).first()).toContainText('Called the customer: back on Tuesday');

  // The same from the palette, after a visit elsewhere.
  await navTo(page, 'Overview');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  await palette.getByRole('combobox').fill('Renewals');
  await palette.getByRole('combobox').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Renewals' })).toBeVisible();
  await expect(worklistRows(page).first()).toContainText('Called the customer');
});
