/**
 * Trust II, item 11: a refresh of the local copy does not believe the
 * service's `total`. Through the real IPC dispatch and the real offline
 * service, signed in to an environment whose URL is a hostile proxy in front of
 * the sandbox that lies about the total, or answers the same page whatever
 * page is asked for.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import type { CacheStatus, SyncProgress, SyncSummary } from '../../shared/ipc/offline.js';
import { LIST_KEPT_MOVING, LIST_READS } from '../../electron/services/replica/replica-sync.js';
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
  it('a total of 57,540,317 over a list of a few hundred: stops at the short page, reads once more to be sure, and says the counts disagree', async () => {
    expect(real).toBeGreaterThan(100);
    // Only this sync's requests (beforeAll's first sync made its own).
    proxy.requests.length = 0;
    proxy.setRules([{ method: 'GET', pathPrefix: LIST, answer: { kind: 'rewrite', rewrite: (json) => ({ ...(json as object), total: CLAIMED }) } }]);
    const summary = value<SyncSummary>(await app.call('offline.sync'));
    expect(summary.capacities).toBe(real);
    // Two reads (the second ends where the first did: the total is what is wrong, trust13), each the pages the list
    // holds plus at most those already in flight when the short one came back.
    expect(proxy.requests.filter((line) => line.startsWith(`GET ${LIST}?page=1&`))).toHaveLength(2);
    expect(listRequests()).toBeLessThanOrEqual(2 * (Math.ceil(real / 100) + 8));
    const done = progress.find((p) => p.phase === 'done');
    expect(done?.message).toContain(`The service said it holds ${CLAIMED.toLocaleString()} capacity policies but its pages held ${real.toLocaleString()}`);
    const last = progress.filter((p) => p.phase === 'capacities').at(-1);
    expect(last).toMatchObject({ fetched: real, total: real });
  });

  it('a page cut short once under a total that holds still (a proxy, a service fault): the list is read again, and the copy keeps every policy, with no word about counts', async () => {
    const before = value<CacheStatus>(await app.call('offline.status'));
    expect(before.capacityCount).toBe(real);
    let cut = false;
    proxy.setRules([
      {
        method: 'GET',
        pathPrefix: LIST,
        answer: {
          kind: 'rewrite',
          rewrite: (json, url) => {
            if (cut || url.searchParams.get('page') !== '2') return json;
            cut = true;
            const page = json as { data: unknown[] };
            return { ...page, data: page.data.slice(0, 70) };
          },
        },
      },
    ]);
    const summary = value<SyncSummary>(await app.call('offline.sync'));
    expect(cut).toBe(true);
    // Before trust13 the pages ended at page 2: the copy lost the policies past it (170 of 179 kept) and was
    // stamped fresh, with only "its pages held 170" to say so. (A cut of a quarter of the list or more was read
    // again already, by chance: the refresh then writes the whole list, which it had not held.)
    expect(summary.capacities).toBe(real);
    expect(value<CacheStatus>(await app.call('offline.status')).capacityCount).toBe(real);
    expect(progress.find((p) => p.phase === 'done')?.message ?? '').not.toContain('The service said');
  });

  it('a service that answers the same page whatever page is asked: each read stops at the first page with no new id; the list never holds still, so the copy is kept as it was and the sync says why', async () => {
    const before = value<CacheStatus>(await app.call('offline.status'));
    expect(before.capacityCount).toBe(real);
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
    const failed = await app.call('offline.sync');
    // Before moved12 the copy was cut to the 100 policies of that page and stamped fresh ('its pages held 100').
    expect(failed).toMatchObject({ ok: false, error: { kind: 'server', message: LIST_KEPT_MOVING } });
    expect(progress.find((p) => p.phase === 'failed')?.message).toBe(LIST_KEPT_MOVING);
    expect(progress.find((p) => p.phase === 'done')).toBeUndefined();
    // Each read bounded as before: its first page, a page with no new id, and those already in flight.
    expect(listRequests()).toBeLessThanOrEqual(LIST_READS * (1 + 8 + 8));
    const after = value<CacheStatus>(await app.call('offline.status'));
    expect(after.capacityCount).toBe(real);
    expect(after.fetchedAt.capacities).toBe(before.fetchedAt.capacities);
  });

  it('a truthful service: no word about counts, the same copy as before', async () => {
    const summary = value<SyncSummary>(await app.call('offline.sync'));
    expect(summary.capacities).toBe(real);
    expect(progress.find((p) => p.phase === 'done')?.message ?? '').not.toContain('The service said');
  });
});
