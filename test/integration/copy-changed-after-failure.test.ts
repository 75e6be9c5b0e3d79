/**
 * The views follow the copy (offline.copyChanged) whenever a refresh may have changed it: the list commits
 * before the linked accounts are read, so a refresh that fails after it has changed the copy all the same.
 * Through the real IPC dispatch and services, the sandbox over HTTP.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import type { SyncSummary } from '../../shared/ipc/offline.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { value } from '../support/ipc-result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

let app: FastApp;
const told: unknown[] = [];
beforeEach(async () => {
  app = await startFastApp({ secrets: new FixedSecretStore() });
  await app.signIn('sandbox', ALEX);
  app.services.events.subscribe((event, payload) => {
    if (event === 'offline.copyChanged') told.push(payload);
  });
});
afterEach(async () => {
  told.length = 0;
  await app.controls.clearFaults();
  await app.close();
});

it('a refresh that fails after its list was written still tells the views the copy changed', async () => {
  const first = value<SyncSummary>(await app.call('offline.sync'));
  expect(first.capacities).toBeGreaterThan(0);
  expect(told).toHaveLength(1);

  await app.controls.addFault({ pathPrefix: ENDPOINTS.linkedAccounts.path, method: 'GET', errorRate: 1, errorStatus: 503 });
  const failed = await app.call('offline.sync');
  expect(failed.ok).toBe(false);
  expect(told).toHaveLength(2);
}, 60_000);
