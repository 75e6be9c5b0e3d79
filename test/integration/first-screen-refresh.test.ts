import { afterEach, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type { SyncProgress } from '../../shared/ipc/offline.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 25: over a copy on disk, the refresh a sign-in starts waits for the first screen (the overview,
 * answered from the copy) to be answered, so its fetching and writing do not slow those figures.
 */
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

it('with a copy on disk, starts the sign-in refresh once the overview has been answered, not at the sign-in', async () => {
  app = await startTestApp({ secrets: new FixedSecretStore() });
  const progress: SyncProgress[] = [];
  app.services.events.subscribe((event, payload) => {
    if (event === 'offline.syncProgress') progress.push(payload as SyncProgress);
  });
  const alex = SANDBOX_USERS[0]!;
  const handlers = app.services.handlers;
  const signIn = () => handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
  // No copy yet: the fill starts with the sign-in, the views paging the service meanwhile.
  await signIn();
  await expect.poll(() => progress.some((p) => p.phase === 'done'), { timeout: 30_000 }).toBe(true);
  await handlers['session.signOut'](undefined);
  progress.length = 0;

  await signIn();
  // Well under the five seconds a sign-in waits for a window that never asks.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(progress).toEqual([]);
  await handlers['overview.summary'](undefined);
  await expect.poll(() => progress.some((p) => p.phase === 'done'), { timeout: 30_000 }).toBe(true);
});
