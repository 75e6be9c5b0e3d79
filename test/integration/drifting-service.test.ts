/**
 * Property-based (fast-check): the app's readers against a service whose
 * answers drift from this project's OpenAPI document in every way a server
 * built from the API description might (test/support/drifting-proxy.ts), in
 * front of a real sandbox. Whatever the drift, no view's read fails, every
 * item with an id shows, every item without one is counted, no group of a
 * detail answer is lost, and money answers stay strict.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../electron/services/api-client/errors.js';
import type { EndpointName } from '../../shared/api/endpoints.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syncCapacities, SYNC_PAGE_SIZE } from '../../electron/services/bulk/capacity-sync.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { driftPlanArbitrary, EVERY_DRIFT, startDriftingProxy, type DriftingProxy } from '../support/drifting-proxy.js';
import { capacityOverview, capacityWindow } from '../../electron/services/replica/replica-reads.js';
import { writeCapacities } from '../../electron/services/replica/replica-writes.js';

const ALEX = SANDBOX_USERS[0]!;
let sandbox: SandboxHandle;
let proxy: DriftingProxy;
let direct: ApiClient;
let drifting: ApiClient;
let token: string;
const drift: { endpoint: EndpointName; findings: readonly string[] }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 60 });
  proxy = await startDriftingProxy({ target: sandbox.url });
  direct = new ApiClient({ baseUrl: sandbox.url });
  drifting = new ApiClient({ baseUrl: proxy.url, onDrift: (endpoint, findings) => drift.push({ endpoint, findings }) });
  token = (await drifting.call('signIn', { body: { username: ALEX.username, password: ALEX.password } })).access_token;
});

afterAll(async () => {
  await drifting.close();
  await direct.close();
  await proxy.close();
  await sandbox.close();
});

describe('reading a drifting service', () => {
  it('never fails a view, shows every item with an id and counts the rest', async () => {
    const exact = await direct.call('listCapacities', { token, query: { page: 1, pageSize: 20 } });
    const accounts = await direct.call('linkedAccounts', { token });
    const customer = ALEX.customers[0]!.cidExt;
    const cyber = await direct.call('listCyberPolicies', { token, params: { cid_ext: customer }, query: { page: 1, pageSize: 20 } });
    const first = exact.data[0]!.cidrId;
    const cyberFirst = cyber.data[0]!.cidrId;
    const describe = await direct.call('describeCapacity', { token, params: { cidr_id: first } });

    await fc.assert(
      fc.asyncProperty(driftPlanArbitrary, async (plan) => {
        proxy.setPlan(plan);
        const page = await drifting.read('listCapacities', { token, query: { page: 1, pageSize: 20 } });
        expect(page.data.map((row) => row.cidrId)).toEqual(exact.data.map((row) => row.cidrId));
        expect(page.skipped).toHaveLength(plan.itemWithoutId ? 1 : 0);
        expect(page.total).toBe(exact.total);

        const read = await drifting.read('linkedAccounts', { token });
        expect(read.items.map((account) => account.accountId)).toEqual(accounts.map((account) => account.accountId));

        const dr = await drifting.read('listCyberPolicies', { token, params: { cid_ext: customer }, query: { page: 1, pageSize: 20 } });
        expect(dr.data.map((row) => row.cidrId)).toEqual(cyber.data.map((row) => row.cidrId));

        const view = await drifting.read('describeCapacity', { token, params: { cidr_id: first } });
        expect(view.cidrId).toBe(first);
        // Every group of the answer is somewhere: read as designed, or kept for the generic section.
        for (const group of Object.keys(describe)) {
          const kept = (view as Record<string, unknown>)[group] !== undefined || Object.keys(view.extra).some((key) => key.startsWith(group));
          expect(kept, `group ${group}`).toBe(true);
        }
        const cyberView = await drifting.read('viewCyberPolicy', { token, params: { cidr_id: cyberFirst } });
        expect(cyberView.cidrId).toBe(cyberFirst);
      }),
      { numRuns: 25, seed: 16 },
    );
    proxy.setPlan(undefined);
    // Every difference is reported as paths, none with a value of the answer in it.
    expect(drift.length).toBeGreaterThan(0);
    expect(JSON.stringify(drift)).not.toContain(first);
  });

  it('keeps every policy with an id in the local copy, whatever the drift, and counts the items without one', async () => {
    const exact = await direct.call('listCapacities', { token, query: { page: 1, pageSize: 1 } });
    proxy.setPlan(EVERY_DRIFT);
    const dataDir = await mkdtemp(join(tmpdir(), 'cd-drift-sync-'));
    try {
      // A strict sync failed here as a whole: one odd policy cost the user the entire copy.
      const synced = await syncCapacities({ authorized: (work) => work(drifting, token) });
      expect(synced.rows).toHaveLength(exact.total);
      expect(synced.leftOut).toHaveLength(Math.ceil(exact.total / SYNC_PAGE_SIZE));
      expect(synced.leftOut[0]?.problems.join(' ')).toContain('cidrId');
      expect(synced.rows.every((row) => row.policyName === undefined && row.pricing === undefined)).toBe(true);

      const cache = await Replica.open({ dataDir, secrets: new FixedSecretStore(), owner: { profileId: 'drift', username: ALEX.username } });
      await writeCapacities(cache, synced.rows.reverse(), new Date(), synced.leftOut);
      await cache.warm();
      const query = { text: '', sortBy: 'policyName' as const, sortOrder: 'asc' as const, offset: 0, limit: 500 };
      for (const sortBy of ['policyName', 'ourPrice', 'createdDate', 'end'] as const) {
        const answer = await capacityWindow(cache, { ...query, sortBy });
        expect(answer?.total, sortBy).toBe(exact.total);
        // The views say, from the copy, what the refresh could not keep.
        expect(answer?.leftOut).toEqual(synced.leftOut);
      }
      expect((await capacityOverview(cache, new Date()))?.skipped).toEqual(synced.leftOut);
      const one = synced.rows[0]!.cidrId;
      expect((await capacityWindow(cache, { ...query, text: one }))?.rows.map((row) => row.cidrId)).toContain(one);
      await cache.close();
    } finally {
      proxy.setPlan(undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a money answer that lacks a required field, naming it, and never as a retry', async () => {
    const ready = (await direct.call('listCapacities', { token, query: { status: 'READY_FOR_PURCHASE', pageSize: 1 } })).data[0]!;
    proxy.setMalformMoney(true);
    try {
      const failure = await drifting.call('purchaseCapacity', { token, body: { cidrId: ready.cidrId } }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiFailure);
      expect((failure as ApiFailure).error).toMatchObject({ kind: 'contract', field: 'pricing' });
      expect((failure as ApiFailure).error.message).toMatch(/could not be read: field "pricing"/);
      expect((failure as ApiFailure).delivery).toBe('unknown');
    } finally {
      proxy.setMalformMoney(false);
    }
  });
});
