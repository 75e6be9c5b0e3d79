import type { Page } from '@playwright/test';
import { WorklistQuery } from '../../shared/ipc/worklist.js';
import { expect, listFromOtherWindow, navTo, openList, otherWindow, sandboxControl, test } from './support/capacity.js';

/**
 * A refresh that changes the copy (here, started by the main process as its background refresh is, not by the
 * page) tells the views (offline.copyChanged): the open list and Renewals show the change without navigation.
 */
test.describe.configure({ timeout: 120_000 });

async function replicaReady(page: Page): Promise<void> {
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
}

test('a refresh that renames a policy on the service updates the open Renewals and capacity list, their filters kept', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await replicaReady(page);

  await navTo(page, 'Renewals');
  await page.getByRole('radio', { name: '90 days' }).check();
  const worklist = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 90, limit: 1 }));
  const due = worklist.rows[0]?.policy;
  if (!due) throw new Error('the seed has nothing due within 90 days');
  await expect(page.getByTestId('worklist-table').getByText(due.policyName ?? due.cidrId, { exact: true }).first()).toBeVisible();
  await sandboxControl(app, 'POST', '/rename', { cidrId: due.cidrId, policyName: 'Renamed on the service, seen in Renewals' });
  await otherWindow(app)['offline.sync'](undefined);
  await expect(page.getByTestId('worklist-table').getByText('Renamed on the service, seen in Renewals')).toBeVisible();
  // Read again with the filter chosen, not from the top with the defaults.
  await expect(page.getByRole('radio', { name: '90 days' })).toBeChecked();

  await openList(page);
  const newest = (await listFromOtherWindow(app, { offset: 0, limit: 1 })).rows[0];
  if (!newest) throw new Error('the seed has no policy');
  await expect(page.getByTestId('capacity-list-view').getByText(newest.policyName ?? newest.cidrId, { exact: true }).first()).toBeVisible();
  await sandboxControl(app, 'POST', '/rename', { cidrId: newest.cidrId, policyName: 'Renamed on the service, seen in the list' });
  await otherWindow(app)['offline.sync'](undefined);
  await expect(page.getByTestId('capacity-list-view').getByText('Renamed on the service, seen in the list')).toBeVisible();
});
