import { afterEach, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type { SyncProgress } from '../../shared/ipc/offline.js';
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

/** The first page's loading, counting the count's waits on it (one between each two of its statements). */
class WatchedLoading extends PageLoading {
  waits = 0;
  override loaded(): Promise<void> {
    this.waits += 1;
    return super.loaded();
  }
}

it('at a launch, the prepared count waits while the first page is loading and goes on once its code is served', async () => {
  let loading = new WatchedLoading();
  app = await startTestApp({ secrets: new FixedSecretStore(), pageLoading: () => (loading = new WatchedLoading()) });
  const alex = SANDBOX_USERS[0]!;
  const done = new Promise<void>((resolve) => app!.services.events.subscribe((event, payload) => event === 'offline.syncProgress' && (payload as SyncProgress).phase === 'done' && resolve()));
  await app.services.handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
  await done;
  // Quit and start again with the session kept: the window's page is asked for as the services start (as the Electron
  // shell's window is), and its code is not served yet. (No launch mark: they are the process's, kept once, and the
  // integration files share a process.)
  await app.restartApp();
  const restarted = loading;
  restarted.pageAsked();
  // The count, prepared as the copy opens, comes to its first wait...
  await expect.poll(() => restarted.waits, { timeout: 30_000 }).toBeGreaterThan(0);
  const held = restarted.waits;
  // ...and stays there: a second later no further statement has run (counted in one go this copy takes a few ms).
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(restarted.waits).toBe(held);
  restarted.codeServed();
  // Then it goes on, and the window's first ask is answered.
  await expect.poll(() => restarted.waits, { timeout: 30_000 }).toBeGreaterThan(held);
  expect((await app.services.handlers['overview.summary'](undefined)).totalPolicies).toBeGreaterThan(0);
});
