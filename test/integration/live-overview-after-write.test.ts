import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/services/app-services.js';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import type { OverviewSummary } from '../../shared/ipc/overview.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { sandboxAccess } from '../support/test-app.js';
import { ALEX, sandboxControls } from '../unit/api-client/sandbox-fixture.js';

/**
 * The live overview (no copy yet: computed from the service's pages) lets a second caller share a computation
 * under way (OverviewService). Review11 suspected that a caller who changed a policy and then asked would be
 * handed a count whose pages were read before its own change; the count in time slices (curve11) made that
 * window longer. A caller who wrote must see its write.
 */
let services: AppServices | null = null;
let dataDir = '';
afterEach(async () => {
  await services?.close();
  services = null;
  await rm(dataDir, { recursive: true, force: true });
});

const count = (summary: OverviewSummary, status: string) => summary.byStatus.find((entry) => entry.status === status)?.count ?? 0;

/**
 * Signed in on a small sandbox with no copy, an active policy picked, and another view's overview under way: its
 * page made now, from the list before whatever the test does next, and held back on its way.
 */
async function overviewHeldBeforeAWrite() {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-live-overview-'));
  // Small enough for the first user's list to be one page of the overview's reads; no copy is made at the sign-in.
  services = await createAppServices({ dataDir, secrets: new FixedSecretStore(), startSandbox: builtInSandbox({ controls: true, scale: 100 }), refreshReplicaAtSignIn: false });
  await services.sandbox.start();
  const { handlers } = services;
  await handlers['session.signIn']({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
  const before = await handlers['overview.summary'](undefined);
  expect(before.origin.source).toBe('service');
  const active = (await handlers['capacity.list']({ status: 'ACTIVE', limit: 1, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0 })).rows[0];
  if (!active) throw new Error('the seed has no active policy');
  const controls = sandboxControls(services.sandbox.url, sandboxAccess(services));
  await controls.addFault({ pathPrefix: ENDPOINTS.listCapacities.path, method: 'GET', holdAnswers: true });
  const underWay = handlers['overview.summary'](undefined);
  await expect.poll(() => controls.heldAnswers(), { timeout: 20_000 }).toBeGreaterThan(0);
  return { handlers, before, active, controls, underWay };
}

it('answers a caller who cancelled a policy with a count that has the cancel, not the one under way since before it', async () => {
  const { handlers, before, active, controls, underWay } = await overviewHeldBeforeAWrite();
  // The person cancels (the service answers, the app writes it through), then asks for the overview.
  await handlers['capacity.cancel']({ cidrId: active.cidrId });
  const afterCancel = handlers['overview.summary'](undefined);
  await controls.clearFaults();

  expect(count(await underWay, 'ACTIVE')).toBe(count(before, 'ACTIVE'));
  const seen = await afterCancel;
  expect(count(seen, 'ACTIVE')).toBe(count(before, 'ACTIVE') - 1);
  expect(count(seen, 'CANCELED')).toBe(count(before, 'CANCELED') + 1);
}, 60_000);

it('answers a caller whose cancel the service applied but whose answer was lost (settled by reading back) with a count that has the cancel (moved12)', async () => {
  const { handlers, before, active, controls, underWay } = await overviewHeldBeforeAWrite();
  // The service applies the cancel and its answer arrives broken: the outcome is unknown until a read-back settles it.
  const cancelPath = ENDPOINTS.cancelCapacity.path.replace('{cidr_id}', active.cidrId);
  await controls.addFault({ pathPrefix: cancelPath, method: ENDPOINTS.cancelCapacity.method, malformedRate: 1, malformedCount: 1 });
  const cancelled = await handlers['capacity.cancel']({ cidrId: active.cidrId }).then(
    () => 'answered',
    (error: unknown) => error,
  );
  expect(cancelled).toMatchObject({ error: { kind: 'contract' } });
  expect(await handlers['money.check']({ cidrId: active.cidrId })).toMatchObject({ state: 'free' });
  const afterCancel = handlers['overview.summary'](undefined);
  await controls.clearFaults();

  expect(count(await underWay, 'ACTIVE')).toBe(count(before, 'ACTIVE'));
  const seen = await afterCancel;
  expect(count(seen, 'ACTIVE')).toBe(count(before, 'ACTIVE') - 1);
}, 60_000);
