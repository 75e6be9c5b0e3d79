import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { createAppServices, type AppServices, type AppServicesOptions } from '../../electron/services/app-services.js';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import { REWRITE_THREAD_FROM_ROWS } from '../../electron/services/replica/capacity-replica-db.js';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import type { CapacityWindow } from '../../shared/ipc/sourced.js';
import type { MoneyState } from '../../shared/ipc/money.js';
import type { SyncProgress } from '../../shared/ipc/offline.js';
import { AppFailure } from '../../shared/ipc/result.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { sandboxAccess } from '../support/test-app.js';
import { ALEX, sandboxControls } from '../unit/api-client/sandbox-fixture.js';

/**
 * What the app starts and defers (the slim rows' load and the check of every page after the first screen, the
 * refresh after a sign-in, the overview by customer, the checkpoint thread, own data, the log) is its close's to
 * end: once close resolves, nothing more lands in the data folder, so a quit, a test's removal of the folder or a
 * wipe is never raced by a late write (a full run once met ENOTEMPTY removing a closed app's folder).
 */

/**
 * How long after close the folder is watched. The work deferred here starts at most paint (500 ms) plus the
 * check's delay (1.5 s) after the overview's answer; a machine too loaded to reach it within this window lets a
 * late write go unseen this time, never fails a close that is right.
 */
const WATCH_AFTER_CLOSE_MS = 4_000;

const dirs: string[] = [];
const open: AppServices[] = [];
afterEach(async () => {
  for (const services of open.splice(0)) await services.close();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function start(
  dataDir?: string,
  options: Partial<Pick<AppServicesOptions, 'moneyCheckDelaysMs' | 'refreshReplicaAtSignIn' | 'secrets'>> & { scale?: number } = {},
): Promise<{ services: AppServices; dataDir: string; progress: SyncProgress[] }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'cd-close-')));
  if (!dataDir) dirs.push(dir);
  const { scale = 300, ...rest } = options;
  const services = await createAppServices({ dataDir: dir, secrets, startSandbox: builtInSandbox({ controls: true, scale }), ...rest });
  open.push(services);
  await services.sandbox.start();
  const progress: SyncProgress[] = [];
  services.events.subscribe((event, payload) => {
    if (event === 'offline.syncProgress') progress.push(payload as SyncProgress);
  });
  return { services, dataDir: dir, progress };
}

/** One keychain for the whole file: a copy written by one run of the app is opened by the next. */
const secrets = new FixedSecretStore();
const signIn = (services: AppServices) => services.handlers['session.signIn']({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });

/** Every file and folder under dir, with its size and when it was last changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const listed: Record<string, string> = {};
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    const facts = await stat(path).catch(() => null);
    listed[path.slice(dir.length)] = facts ? `${entry.isDirectory() ? 'dir' : facts.size} @${facts.mtimeMs}` : 'gone while listed';
  }
  return listed;
}

/**
 * Closes the app, then: nothing in its folder changes while watched, and the folder goes at the first try and
 * stays gone (unless kept for the next start).
 */
async function closeAndWatch(services: AppServices, dataDir: string, { keep = false } = {}): Promise<void> {
  open.splice(open.indexOf(services), 1);
  await services.close();
  const closed = await snapshot(dataDir);
  await new Promise((resolve) => setTimeout(resolve, WATCH_AFTER_CLOSE_MS));
  expect(await snapshot(dataDir)).toEqual(closed);
  if (keep) return;
  // No retry: a file landing while the folder goes fails this with ENOTEMPTY.
  await rm(dataDir, { recursive: true, force: true });
  await new Promise((resolve) => setTimeout(resolve, WATCH_AFTER_CLOSE_MS / 4));
  expect(existsSync(dataDir)).toBe(false);
}

/** A copy on disk for the next run of the app, whose sign-in then defers its refresh to the first screen. */
async function withCopyOnDisk(): Promise<string> {
  const first = await start();
  await signIn(first.services);
  await first.services.handlers['offline.sync'](undefined);
  await first.services.handlers['session.signOut'](undefined);
  open.splice(open.indexOf(first.services), 1);
  await first.services.close();
  return first.dataDir;
}

it('closed just after the overview was answered: the slim rows’ load, the page check, the sign-in refresh and the overview by customer that waited for it write nothing after', async () => {
  const { services, dataDir } = await start(await withCopyOnDisk());
  await signIn(services);
  // Asked before the overview: it waits for the first screen, then reads the copy and own data.
  const byCustomer = services.handlers['customers.overview'](undefined).catch((error: unknown) => error);
  await services.handlers['overview.summary'](undefined);
  await closeAndWatch(services, dataDir);
  // Answered or refused, never left hanging past the close.
  await byCustomer;
});

it('closed while the refresh after a sign-in is fetching: it stops, and nothing of it lands after', async () => {
  const { services, dataDir, progress } = await start();
  await sandboxControls(services.sandbox.url, sandboxAccess(services)).addFault({ latencyMs: 1_000 });
  await signIn(services);
  await expect.poll(() => progress.some((p) => p.phase === 'capacities'), { timeout: 20_000 }).toBe(true);
  await closeAndWatch(services, dataDir);
});

it('closed while a streamed first sync holds its transaction: it rolls back and ends, nothing lands after, and the next start syncs the list whole', async () => {
  // Enough policies for the first sync to be written as its pages come (REWRITE_THREAD_FROM_ROWS).
  const { services, dataDir, progress } = await start(undefined, { scale: 4_000 });
  const controls = sandboxControls(services.sandbox.url, sandboxAccess(services));
  await controls.addFault({ pathPrefix: ENDPOINTS.listCapacities.path, method: 'GET', latencyMs: 1_000 });
  await signIn(services);
  // The stream's thread holds its transaction before the list's first page is asked for.
  await expect.poll(() => progress.some((p) => p.phase === 'capacities'), { timeout: 30_000 }).toBe(true);
  await closeAndWatch(services, dataDir, { keep: true });

  const next = await start(dataDir, { scale: 4_000, refreshReplicaAtSignIn: false });
  await signIn(next.services);
  expect((await next.services.handlers['offline.status'](undefined)).capacityCount).toBe(0);
  const summary = await next.services.handlers['offline.sync'](undefined);
  expect(summary.capacities).toBeGreaterThan(REWRITE_THREAD_FROM_ROWS);
  expect((await next.services.handlers['offline.status'](undefined)).capacityCount).toBe(summary.capacities);
});

it('closed right after a sign-in, with own data and the copy still opening: both end before close does', async () => {
  const { services, dataDir } = await start(await withCopyOnDisk());
  await signIn(services);
  await closeAndWatch(services, dataDir);
});

it('a wipe at sign-out cancels the refresh under way and waits for it: the copy is not written back, and the next sync fills it again', async () => {
  const { services, dataDir, progress } = await start(await withCopyOnDisk());
  const { handlers } = services;
  await signIn(services);
  await handlers['overview.summary'](undefined);
  const controls = sandboxControls(services.sandbox.url, sandboxAccess(services));
  await controls.addFault({ latencyMs: 1_000 });
  const sync = handlers['offline.sync'](undefined).then(
    () => null,
    (error: unknown) => error,
  );
  await expect.poll(() => progress.some((p) => p.phase === 'capacities'), { timeout: 20_000 }).toBe(true);
  const wiped = await handlers['offline.wipe'](undefined);
  expect(wiped.capacityCount).toBe(0);
  const ended = await sync;
  expect(ended).toBeInstanceOf(AppFailure);
  expect((ended as AppFailure).error.kind).toBe('cancelled');
  // What the refresh had fetched is not written after the wipe.
  const cache = join(dataDir, 'cache');
  const files = existsSync(cache) ? await readdir(cache, { recursive: true }) : [];
  expect(files.filter((name) => String(name).endsWith('replica.db'))).toEqual([]);
  expect((await handlers['offline.status'](undefined)).capacityCount).toBe(0);
  await controls.clearFaults();
  const summary = await handlers['offline.sync'](undefined);
  expect((await handlers['offline.status'](undefined)).capacityCount).toBe(summary.capacities);
});

it('closed while a money action’s outcome waits for its next read-back: the wait ends, the outcome stays recorded as unsure, and the next start locks the policy without sending again', async () => {
  // The second read-back would come a minute after the first: only close can end the wait before it.
  const { services, dataDir } = await start(undefined, { moneyCheckDelaysMs: [0, 60_000], refreshReplicaAtSignIn: false });
  await signIn(services);
  const window: CapacityWindow = await services.handlers['capacity.list']({ status: 'ACTIVE', limit: 1, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0 });
  const policy = window.rows[0];
  if (!policy) throw new Error('the seed has no active policy');
  const controls = sandboxControls(services.sandbox.url, sandboxAccess(services));
  // The cancel's connection is dropped before the service acts: its outcome is unknown, and the first read-back shows it active.
  await controls.addFault({ pathPrefix: ENDPOINTS.cancelCapacity.path, method: 'POST', dropRate: 1 });
  let answered: unknown = null;
  const cancel = services.handlers['capacity.cancel']({ cidrId: policy.cidrId }).then(
    () => (answered = 'sent'),
    (error: unknown) => (answered = error),
  );
  await expect.poll(async () => (await controls.stats()).describeCapacity, { timeout: 20_000 }).toBeGreaterThan(0);
  await closeAndWatch(services, dataDir, { keep: true });
  // Answered by the time close resolved: unsure, not waiting past the close.
  expect(answered).toBeInstanceOf(AppFailure);
  expect((answered as AppFailure).error.message).toMatch(/closed before the policy could be read back/);
  await cancel;

  const next = await start(dataDir);
  await signIn(next.services);
  expect((await next.services.handlers['money.state']({ cidrId: policy.cidrId })) as MoneyState).toMatchObject({ state: 'uncertain', action: 'cancel' });
  expect(await next.services.handlers['capacity.cancel']({ cidrId: policy.cidrId }).catch((error: unknown) => error)).toMatchObject({ error: { kind: 'unsettled' } });
  expect((await sandboxControls(next.services.sandbox.url, sandboxAccess(next.services)).stats()).cancelCapacity).toBe(0);
});

it('closed while a sign-in waits for the service’s answer: it stops, and neither its token nor its settings are written after', async () => {
  const ownKeychain = new FixedSecretStore();
  const { services, dataDir } = await start(undefined, { secrets: ownKeychain });
  const controls = sandboxControls(services.sandbox.url, sandboxAccess(services));
  await controls.addFault({ pathPrefix: ENDPOINTS.signIn.path, method: 'POST', holdAnswers: true });
  const signingIn = signIn(services).then(
    () => 'signed in',
    (error: unknown) => error,
  );
  await expect.poll(() => controls.heldAnswers(), { timeout: 20_000 }).toBe(1);
  // Let go as close begins: without close owning it, the answer would store the token and settings after it.
  const closed = closeAndWatch(services, dataDir, { keep: true });
  await controls.clearFaults().catch(() => undefined);
  await closed;
  expect(await signingIn).toMatchObject({ error: { kind: 'cancelled' } });
  expect(await ownKeychain.get(keychainService('sandbox'), ALEX.username)).toBeNull();
  const settings = join(dataDir, 'settings.json');
  expect(existsSync(settings) ? await readFile(settings, 'utf8') : '').not.toContain(ALEX.username);
});
