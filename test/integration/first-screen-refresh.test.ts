import { afterEach, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type { SyncProgress } from '../../shared/ipc/offline.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { launchMarks } from '../../electron/services/diagnostics/launch-marks.js';

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

it('at a launch with a kept session and a copy on disk, counts the overview before any window has loaded its code (issue 25)', async () => {
  app = await startTestApp({ secrets: new FixedSecretStore() });
  const alex = SANDBOX_USERS[0]!;
  const done = new Promise<void>((resolve) => app!.services.events.subscribe((event, payload) => event === 'offline.syncProgress' && (payload as SyncProgress).phase === 'done' && resolve()));
  await app.services.handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
  await done;
  // Quit and start again, the session kept: no page is opened, so none is served its code.
  await app.restartApp();
  // Launch marks are the process's, kept once: this file runs in a process of its own (vitest.config.ts), and no
  // test above in it starts an app with a kept session.
  const prepared = () => launchMarks().some(({ step }) => step === 'overview count prepared, done');
  await expect.poll(prepared, { timeout: 30_000 }).toBe(true);
  // The window's first ask takes that count.
  expect((await app.services.handlers['overview.summary'](undefined)).totalPolicies).toBeGreaterThan(0);
});
