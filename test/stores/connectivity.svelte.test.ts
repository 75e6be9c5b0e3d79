import { answer, push, resetFakeApi, settle } from './support/fake-api.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CacheStatus, SyncSummary } from '../../shared/ipc/offline.js';
import { api } from '../../renderer/lib/api.js';
import { connectivity } from '../../renderer/stores/connectivity.svelte.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE, overviewOf, windowOf } from './support/fixtures.js';
import { calls } from './support/fake-api.js';

const withCopy: CacheStatus = { persistent: true, fetchedAt: { capacities: '2026-11-22T03:00:00.000Z' }, capacityCount: 3, discarded: 0 };
const SUMMARY: SyncSummary = { capacities: 3, capacitiesLeftOut: 0, details: 0, accounts: 0, cyberPolicies: 0, customers: 0, durationMs: 1, fetchedAt: '2026-11-23T03:00:00.000Z' };
const noCopy: CacheStatus = { persistent: true, fetchedAt: {}, capacityCount: 0, discarded: 0 };

let stop: () => void = () => undefined;
beforeEach(async () => {
  resetFakeApi();
  answer('offline.status', () => ({ ok: true, value: withCopy }));
  // Coming back online refreshes the copy and the list on screen.
  answer('offline.sync', () => ({ ok: true, value: SUMMARY }));
  answer('capacity.list', () => ({ ok: true, value: windowOf([], 0) }));
  // The main process's progress events end each refresh; this fake sends none.
  connectivity.progress = null;
  stop = connectivity.start();
  await connectivity.listening;
  await settle();
});
afterEach(async () => {
  stop();
  await connectivity.goOnline();
});

describe('connectivity', () => {
  it('goes offline when the main process notices the service away, with no read of a view, and back when it answers (ux14)', async () => {
    const returned = connectivity.returned;
    push('network.serviceChanged', { reachable: false, checkedAt: '2026-11-23T03:00:00.000Z' });
    await settle();
    expect(connectivity.serviceDown).toBe(true);
    expect(connectivity.offline).toBe(true);
    expect(connectivity.reason).toBe('unreachable');
    // Each check's answer while away is told again: nothing changes.
    push('network.serviceChanged', { reachable: false, checkedAt: '2026-11-23T03:00:02.000Z' });
    await settle();
    expect(connectivity.offline).toBe(true);

    push('network.serviceChanged', { reachable: true, checkedAt: '2026-11-23T03:00:04.000Z' });
    await settle();
    expect(connectivity.offline).toBe(false);
    expect(connectivity.serviceDown).toBe(false);
    expect(connectivity.returned).toBe(returned + 1);
  });

  it('stays offline by choice when the service is noticed answering (ux14)', async () => {
    answer('offline.enter', () => ({ ok: true, value: withCopy }));
    answer('offline.leave', () => ({ ok: true, value: null }));
    await connectivity.workOffline('sandbox');
    push('network.serviceChanged', { reachable: true, checkedAt: '2026-11-23T03:00:04.000Z' });
    await settle();
    expect(connectivity.offline).toBe(true);
    expect(connectivity.reason).toBe('chosen');
  });

  it('switches to the local copy when a read cannot reach the service, and not for a failed change', async () => {
    answer('profiles.save', () => ({ ok: false, error: UNREACHABLE }));
    await api.profiles.save({ name: 'x', baseUrl: 'http://127.0.0.1:1' });
    await settle();
    expect(connectivity.offline).toBe(false);

    answer('overview.summary', () => ({ ok: false, error: UNREACHABLE }));
    await api.overview.summary();
    await settle();
    expect(connectivity.serviceDown).toBe(true);
    expect(connectivity.offline).toBe(true);
    expect(connectivity.reason).toBe('unreachable');
  });

  it('notices a copy that answered because the service was unreachable, and the service answering again', async () => {
    answer('overview.summary', () => ({ ok: true, value: overviewOf(1, FROM_COPY) }));
    await api.overview.summary();
    await settle();
    expect(connectivity.serviceDown).toBe(true);
    await connectivity.goOnline();
    answer('overview.summary', () => ({ ok: true, value: overviewOf(1, SERVICE_NOW) }));
    await api.overview.summary();
    expect(connectivity.serviceDown).toBe(false);
  });

  it('stays online without a copy to switch to: the view shows its own error', async () => {
    answer('offline.status', () => ({ ok: true, value: noCopy }));
    answer('overview.summary', () => ({ ok: false, error: UNREACHABLE }));
    await api.overview.summary();
    await settle();
    expect(connectivity.serviceDown).toBe(true);
    expect(connectivity.offline).toBe(false);
  });

  it('comes back in one moment when a check finds the service: offline ends, the view is mounted again, old errors clear, the copy refreshes', async () => {
    answer('overview.summary', () => ({ ok: false, error: UNREACHABLE }));
    await api.overview.summary();
    await settle();
    expect(connectivity.offline).toBe(true);
    connectivity.syncError = UNREACHABLE;
    const returned = connectivity.returned;

    answer('network.checkService', () => ({ ok: true, value: { reachable: false, checkedAt: '2026-11-23T03:00:00.000Z' } }));
    expect(await connectivity.checkNow()).toBe(false);
    expect(connectivity.offline).toBe(true);

    // A live answer that was asked before the service went away does not flip the app back by itself.
    answer('overview.summary', () => ({ ok: true, value: overviewOf(1, SERVICE_NOW) }));
    await api.overview.summary();
    await settle();
    expect(connectivity.offline).toBe(true);

    answer('network.checkService', () => ({ ok: true, value: { reachable: true, checkedAt: '2026-11-23T03:01:00.000Z' } }));
    const before = calls.length;
    expect(await connectivity.checkNow()).toBe(true);
    expect(connectivity.offline).toBe(false);
    expect(connectivity.serviceDown).toBe(false);
    expect(connectivity.syncError).toBeNull();
    expect(connectivity.returned).toBe(returned + 1);
    expect(calls.slice(before).map((call) => call.channel)).toContain('offline.sync');
  });
});
