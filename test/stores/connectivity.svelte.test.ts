import { answer, resetFakeApi, settle } from './support/fake-api.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../shared/ipc/offline.js';
import { api } from '../../renderer/lib/api.js';
import { connectivity } from '../../renderer/stores/connectivity.svelte.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE, overviewOf } from './support/fixtures.js';

const withCopy: CacheStatus = { persistent: true, fetchedAt: { capacities: '2026-11-22T03:00:00.000Z' }, capacityCount: 3, discarded: 0 };
const noCopy: CacheStatus = { persistent: true, fetchedAt: {}, capacityCount: 0, discarded: 0 };

let stop: () => void = () => undefined;
beforeEach(async () => {
  resetFakeApi();
  answer('offline.status', () => ({ ok: true, value: withCopy }));
  stop = connectivity.start();
  await settle();
});
afterEach(async () => {
  stop();
  await connectivity.goOnline();
});

describe('connectivity', () => {
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
});
