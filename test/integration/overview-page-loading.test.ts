import { afterEach, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type { SyncProgress } from '../../shared/ipc/offline.js';
import { launchMarks } from '../../electron/services/diagnostics/launch-marks.js';
import { PageLoading } from '../../electron/services/overview/page-loading.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 25 (overview12): the overview counted at a launch waits between its statements while the first page loads,
 * so the page's files are not served each behind a cold statement; it goes on once the page has its code.
 */
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

it('at a launch, the prepared count waits while the first page is loading and ends once its code is served', async () => {
  let loading = new PageLoading();
  app = await startTestApp({ secrets: new FixedSecretStore(), pageLoading: () => (loading = new PageLoading()) });
  const alex = SANDBOX_USERS[0]!;
  const done = new Promise<void>((resolve) => app!.services.events.subscribe((event, payload) => event === 'offline.syncProgress' && (payload as SyncProgress).phase === 'done' && resolve()));
  await app.services.handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
  await done;
  // Quit and start again with the session kept: the window's page is asked for as the services start (as the Electron
  // shell's window is), and its code is not served yet.
  await app.restartApp();
  loading.pageAsked();
  const marked = (step: string) => launchMarks().some((mark) => mark.step === step);
  await expect.poll(() => marked('overview count prepared'), { timeout: 30_000 }).toBe(true);
  // Counted in one go the copy of this size takes a few ms; held, it has not ended a second later.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(marked('overview count prepared, done')).toBe(false);
  loading.codeServed();
  await expect.poll(() => marked('overview count prepared, done'), { timeout: 30_000 }).toBe(true);
  // The window's first ask takes that count.
  expect((await app.services.handlers['overview.summary'](undefined)).totalPolicies).toBeGreaterThan(0);
});
