/**
 * Trust II, item 11: a refresh of the local copy does not believe the
 * service's `total`. Through the real IPC dispatch and the real offline
 * service, signed in to an environment whose URL is a hostile proxy in front of
 * the sandbox that lies about the total, or answers the same page whatever
 * page is asked for.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import type { SyncProgress, SyncSummary } from '../../shared/ipc/offline.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { sandboxAccess } from '../support/test-app.js';
import { startHostileProxy, type HostileProxy } from '../support/hostile-proxy.js';
import { value } from '../support/ipc-result.js';

const LIST = ENDPOINTS.listCapacities.path;
const CLAIMED = 57_540_317;

let app: FastApp;
let proxy: HostileProxy;
let real: number;
const progress: SyncProgress[] = [];

const listRequests = () => proxy.requests.filter((line) => line.startsWith(`GET ${LIST}?`)).length;

beforeAll(async () => {
  app = await startFastApp();
  proxy = await startHostileProxy(app.services.sandbox.url, sandboxAccess(app.services));
  const hostile = value<{ id: string }>(await app.call('profiles.save', { name: 'Hostile', baseUrl: proxy.url })).id;
  value(await app.call('session.signIn', { profileId: hostile, username: ALEX.username, password: ALEX.password }));
  real = value<SyncSummary>(await app.call('offline.sync')).capacities;
  app.services.events.subscribe((event, payload) => {
    if (event === 'offline.syncProgress') progress.push(payload as SyncProgress);
  });
});
afterAll(async () => {
  await app.close();
  await proxy.close();
});
afterEach(() => {
  proxy.setRules([]);
  proxy.requests.length = 0;
  progress.length = 0;
});

describe('11. a refresh bounds its work by what the pages hold', () => {
  it('a total of 57,540,317 over a list of a few hundred: stops at the short page and says the counts disagree', async () => {
    expect(real).toBeGreaterThan(100);
    proxy.setRules([{ method: 'GET', pathPrefix: LIST, answer: { kind: 'rewrite', rewrite: (json) => ({ ...(json as object), total: CLAIMED }) } }]);
    const summary = value<SyncSummary>(await app.call('offline.sync'));
    expect(summary.capacities).toBe(real);
    // The pages the list holds, plus at most those already in flight when the short one came back.
    expect(listRequests()).toBeLessThanOrEqual(Math.ceil(real / 100) + 8);
    const done = progress.find((p) => p.phase === 'done');
    expect(done?.message).toContain(`The service said it holds ${CLAIMED.toLocaleString()} capacity policies but its pages held ${real.toLocaleString()}`);
    const last = progress.filter((p) => p.phase === 'capacities').at(-1);
    expect(last).toMatchObject({ fetched: real, total: real });
  });

  it('a service that answers the same page whatever page is asked: stops at the first page with no new id', async () => {
    let firstPage: unknown = null;
    proxy.setRules([
      {
        method: 'GET',
        pathPrefix: LIST,
        answer: {
          kind: 'rewrite',
          rewrite: (json) => {
            firstPage ??= json;
            return { ...(firstPage as object), total: CLAIMED };
          },
        },
      },
    ]);
    const summary = value<SyncSummary>(await app.call('offline.sync'));
    expect(summary.capacities).toBe(100);
    expect(listRequests()).toBeLessThanOrEqual(1 + 8 + 8);
    expect(progress.find((p) => p.phase === 'done')?.message).toContain('its pages held 100;');
  });

  it('a truthful service: no word about counts, the same copy as before', async () => {
    const summary = value<SyncSummary>(await app.call('offline.sync'));
    expect(summary.capacities).toBe(real);
    expect(progress.find((p) => p.phase === 'done')?.message ?? '').not.toContain('The service said');
  });
});
