import { afterEach, expect, it, vi } from 'vitest';
import { BackgroundRefresh } from '../../electron/services/replica/background-refresh.js';
import { startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

/**
 * Request-counting tests start the app with its background refresh off (refreshReplicaAtSignIn: false). The
 * sign-in's refresh was off, but the look at the copy every minute still ran, and it fills an empty copy
 * whatever the interval (background-refresh.test.ts): a test signed in for over a minute (ipc-fuzz's app
 * under load, the money-lock file) had a whole fill beside its counts.
 */
let app: FastApp | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await app?.close();
  app = null;
});

it('with the background refresh off, no look at the copy is scheduled: nothing fills it beside the test', async () => {
  const scheduled = vi.spyOn(BackgroundRefresh.prototype, 'start');
  app = await startFastApp({ refreshReplicaAtSignIn: false });
  expect(scheduled).not.toHaveBeenCalled();
});

it('with it on, as the app runs, the looks are scheduled', async () => {
  const scheduled = vi.spyOn(BackgroundRefresh.prototype, 'start');
  app = await startFastApp({ refreshReplicaAtSignIn: true });
  expect(scheduled).toHaveBeenCalledTimes(1);
});
