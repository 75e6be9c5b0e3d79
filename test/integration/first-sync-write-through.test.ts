/**
 * A money action answered while the first sync reads its pages (no copy yet to write it into): through the
 * real IPC dispatch and services, the sandbox over HTTP. The sync's page was read before the action and
 * arrives after it (the sandbox holds its answer until the test lets it go): the copy must still show the
 * action, not the page.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { API_PREFIX } from '../../shared/api/contract-choices.js';
import type { CapacityWindow } from '../../shared/ipc/sourced.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { value } from '../support/ipc-result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

let app: FastApp;
beforeEach(async () => {
  app = await startFastApp({ secrets: new FixedSecretStore() });
  await app.signIn('sandbox', ALEX);
});
afterEach(async () => {
  await app.controls.clearFaults();
  await app.close();
});

const copyOf = async (cidrId: string): Promise<CapacityWindow> => value<CapacityWindow>(await app.call('capacity.list', { text: cidrId }));

it('a cancel answered while the first sync’s first page is held back is in the copy after the sync, not the page’s older status', async () => {
  // Before the first sync the list is the service's: its first page, oldest first, is the sync's first page.
  const firstPage = value<CapacityWindow>(await app.call('capacity.list', { sortOrder: 'asc', limit: 100 })).rows as CapacityPolicy[];
  const active = firstPage.find((policy) => policy.policyStatus === 'ACTIVE');
  if (!active) throw new Error('the seed has no active policy among the oldest hundred');

  // The list's pages are read at once and their answers held back: the first page shows the policy active.
  await app.controls.addFault({ pathPrefix: `${API_PREFIX}/flexcompute/capacities`, method: 'GET', holdAnswers: true });
  const sync = app.call('offline.sync');
  await expect.poll(() => app.controls.heldAnswers(), { timeout: 30_000 }).toBe(1);

  expect(await app.call('capacity.cancel', { cidrId: active.cidrId })).toMatchObject({ ok: true });
  await app.controls.clearFaults();
  expect(await sync).toMatchObject({ ok: true });

  const kept = await copyOf(active.cidrId);
  expect(kept.local).toBe(true);
  expect(kept.rows).toEqual([expect.objectContaining({ cidrId: active.cidrId, policyStatus: 'CANCELED' })]);
}, 60_000);
