import { test as base, expect, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { ENDPOINTS, type EndpointName } from '../../shared/api/endpoints.js';
import type { UiState } from '../../shared/ipc/ui-state.js';
import { SANDBOX_USERS, type SandboxUser } from '../../sandbox/accounts.js';
import { sandboxAccess, startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';
import { workerKeychain } from '../support/worker-keychain.js';
import { nextRefreshEnd, signInQuietly } from '../support/copy-refresh.js';
import { SANDBOX_PROFILE_ID } from '../../electron/services/profiles/profile-registry.js';

/** Who `openSignedIn` signs in: the first sandbox user, as most specs do. */
const SIGNED_IN_USER = SANDBOX_USERS[0] as SandboxUser;
/** The wait for a page's first screen after a navigation (a condition: no cost when it comes at once). */
const PAGE_START_TIMEOUT_MS = 30_000;

/**
 * Each test gets its own app: fresh data folder, its own sandbox, its own host.
 * `test.use({ appOptions })` changes how it starts (e.g. without the replica's
 * fill after sign-in, for a test of the list paging the service).
 *
 * A read-only spec (it changes nothing on the service, in its own data or in
 * the preferences) may say `test.use({ shareApp: true })`: its tests then use
 * one app per worker, started, signed in and its copy filled at its first test.
 * `openApp` still starts at the sign-in screen (the shared app signs out first);
 * `openSignedIn` opens it signed in as the first sandbox user, on the session and
 * the filled copy the app kept: where sign-in is not the subject, a test skips the
 * app's start, the sign-in and the replica's fill, most of a test's fixed cost. On an
 * app of its own, `openSignedIn(user)` signs in through the sign-in's handler and opens
 * the page signed in, skipping the sign-in screen (0.7 CPU-s a test). After each test
 * the shared app is left as found (see leaveAsFound), and a test that sent a change
 * to the service fails, so a spec that is not read-only cannot share by mistake.
 */
export const test = base.extend<
  {
    appOptions: TestAppOptions;
    shareApp: boolean;
    app: TestApp;
    openApp: () => Promise<Page>;
    openSignedIn: (user?: SandboxUser) => Promise<Page>;
  },
  { workerApp: { get(): Promise<TestApp> } }
>({
  appOptions: [{}, { option: true }],
  shareApp: [false, { option: true }],
  // Started only when a test of the worker asks for it: signed in, its copy filled (see startSharedApp).
  workerApp: [
    async ({}, use) => {
      const started: { app?: Promise<TestApp> } = {};
      await use({ get: () => (started.app ??= startSharedApp()) });
      if (started.app) await (await started.app).close();
    },
    { scope: 'worker' },
  ],
  app: async ({ appOptions, shareApp, workerApp }, use, testInfo) => {
    if (!shareApp) {
      const app = await startTestApp(appOptions);
      await use(app);
      await app.close();
      return;
    }
    if (Object.keys(appOptions).length > 0) throw new Error('a shared app starts with the default options: drop shareApp or appOptions');
    // The worker's one start, sign-in and fill is set-up, not the first test's own time: its timeout is kept whole.
    const asked = Date.now();
    const app = await workerApp.get();
    testInfo.setTimeout(testInfo.timeout + (Date.now() - asked));
    const found = { viewState: await app.services.handlers['views.state'](undefined), auditedBefore: await auditTrail(app) };
    await use(app);
    await leaveAsFound(app, found);
  },
  openApp: async ({ app, page, shareApp }, use) => {
    await use(async () => {
      if (shareApp && (await app.services.handlers['session.status'](undefined)).signedIn) await app.services.handlers['session.signOut'](undefined);
      await page.goto(app.host.newLaunchUrl());
      // A page's whole start (its code fetched, parsed, mounted), not one step of a test: 7 s was passed at load 42.
      await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible({ timeout: PAGE_START_TIMEOUT_MS });
      return page;
    });
  },
  openSignedIn: async ({ app, appOptions, page, shareApp, openApp }, use) => {
    await use(async (user = SIGNED_IN_USER) => {
      if (shareApp && user.username !== SIGNED_IN_USER.username) throw new Error(`the shared app is ${SIGNED_IN_USER.username}'s: a test signed in as ${user.username} needs an app of its own`);
      const status = await app.services.handlers['session.status'](undefined);
      if (shareApp && status.signedIn && status.username === SIGNED_IN_USER.username) {
        await page.goto(app.host.newLaunchUrl());
      } else if (shareApp) {
        // A test on the shared app has no refresh beside it: the one this sign-in starts (after the first screen) is waited for.
        const refreshed = nextRefreshEnd(app.services.events);
        await openApp();
        await signIn(page, SIGNED_IN_USER.username, SIGNED_IN_USER.password);
        const { phase, message } = await refreshed;
        // A partial copy would let the test read less than the shared app promises, without a word.
        if (phase !== 'done') throw new Error(`the shared app's refresh after signing in again ended ${phase}: ${message ?? ''}`);
      } else if (appOptions.refreshReplicaAtSignIn === false) {
        // No refresh follows this sign-in to wait for: the session alone, through the sign-in's own handler.
        await app.services.handlers['session.signIn']({ profileId: SANDBOX_PROFILE_ID, username: user.username, password: user.password });
        await page.goto(app.host.newLaunchUrl());
      } else {
        // Its own app, signed in through the sign-in's own handler (what the sign-in screen calls) and its copy
        // filled, then opened signed in, as after a restart with a kept session: the sign-in screen's own drawing
        // and steps are the subject of the specs about it (sign-in, session-reauth, sign-out-own-data, launch, the
        // a11y matrix), not of a test that only needs to be signed in (docs/testing.md, suite16). The refresh
        // runs before the test's steps, not beside them, as on the shared app.
        await signInQuietly(app.services, user);
        await page.goto(app.host.newLaunchUrl());
      }
      await expect(page.getByTestId('signed-in-user')).toHaveText(user.username, { timeout: PAGE_START_TIMEOUT_MS });
      await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible({ timeout: PAGE_START_TIMEOUT_MS });
      return page;
    });
  },
});

/** For a read-only test in a spec whose other tests need apps of their own: the worker's shared app. */
export const testOnSharedApp = test.extend({ shareApp: true });

/**
 * The worker's shared app, signed in (as the sign-in screen does, through the same handler) and its copy filled
 * before any test reads it, so every test of the worker reads the same full copy.
 */
async function startSharedApp(): Promise<TestApp> {
  const secrets = await workerKeychain('shared app');
  const app = await startTestApp(secrets ? { secrets } : {});
  await signInQuietly(app.services, SIGNED_IN_USER);
  return app;
}

/** The app's audit trail as written so far: every call that changes something, one line each. */
async function auditTrail(app: TestApp): Promise<string> {
  await app.services.auditLog.flush();
  return readFile(app.services.auditLog.file, 'utf8').catch(() => '');
}

/** What a test on the shared app may change in the app: the session (the next test signs in or out as it needs). */
const SESSION_CHANGES = new Set(['session.signIn', 'session.signOut']);

/** The service's endpoints that change something there (every one but the reads and the sign-in). */
const CHANGES: readonly EndpointName[] = (Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => name !== 'signIn' && ENDPOINTS[name].method !== 'GET');

/**
 * Puts a shared app back as the test found it: the sandbox's faults and request counts cleared, the views' kept
 * state (filters, sort, columns) as it was (a key the test added is set to null, which every view reads as its
 * default). The session is kept when it is the signed-in user's (the next `openSignedIn` uses it). A test that
 * sent a change to the service, or made any other change the app audits (a remembered customer, preferences,
 * own data), fails: what it changed would be read by the tests after it.
 */
async function leaveAsFound(app: TestApp, found: { viewState: UiState; auditedBefore: string }): Promise<void> {
  const trail = await auditTrail(app);
  // A trail shorter than before was rotated: all of it is new.
  const added = trail.startsWith(found.auditedBefore) ? trail.slice(found.auditedBefore.length) : trail;
  const changed = [...added.matchAll(/\[audit\] ([\w.]+)/g)].map((match) => match[1]!).filter((channel) => !SESSION_CHANGES.has(channel));
  const control = async (method: 'GET' | 'POST' | 'DELETE', path: string) => {
    const response = await fetch(`${app.services.sandbox.url}/sandbox${path}`, { method, headers: sandboxAccess(app.services) });
    if (!response.ok) throw new Error(`the shared app's sandbox refused ${method} ${path}: ${response.status}`);
    return (await response.json()) as unknown;
  };
  const counts = (await control('GET', '/stats')) as Partial<Record<EndpointName, number>>;
  const sent = [...CHANGES.filter((name) => (counts[name] ?? 0) > 0), ...new Set(changed)];
  await control('DELETE', '/faults');
  await control('POST', '/stats/reset');
  const handlers = app.services.handlers;
  for (const [key, value] of Object.entries(await handlers['views.state'](undefined))) {
    const before = Object.hasOwn(found.viewState, key) ? found.viewState[key] : null;
    if (JSON.stringify(before) !== JSON.stringify(value)) await handlers['views.setState']({ key, value: before ?? null });
  }
  const status = await handlers['session.status'](undefined);
  if (!(status.signedIn && status.username === SIGNED_IN_USER.username)) await handlers['session.signOut'](undefined);
  if (sent.length > 0) throw new Error(`a test on the shared app changed what the tests after it read (${sent.join(', ')}): it needs an app of its own`);
}

export { expect };

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The account's actions (offline copy, preferences, sign out) sit behind the account button. */
export async function openAccountMenu(page: Page): Promise<void> {
  const button = page.getByTestId('account-menu-button');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}
