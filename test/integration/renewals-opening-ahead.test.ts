/**
 * The Renewals' opening made ahead after each refresh (app-services.ts, issue 28) is background work asked once per
 * copy change: several refreshes in a row must cost one more opening, not one each (review8 found them queued one
 * per refresh, each a read of the copy that a click arriving meanwhile waits behind). It is asked as a refresh's
 * list commits too, and outlives the records the refresh writes after the list (renew12).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { createAppServices, type AppServices } from '../../electron/services/app-services.js';
import { RenewalWorklist } from '../../electron/services/worklist/renewal-worklist.js';
import { SessionService } from '../../electron/services/session/session-service.js';
import { WORKLIST_OPENING, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX } from '../unit/api-client/sandbox-fixture.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function signedIn(): Promise<AppServices> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-renewals-ahead-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  // No refresh of its own at sign-in: the copy changes below are the test's.
  const services = await createAppServices({ dataDir, secrets: new FixedSecretStore(), startSandbox: builtInSandbox({ scale: 50 }), refreshReplicaAtSignIn: false });
  cleanup.push(() => services.close());
  await services.sandbox.start();
  await services.handlers['session.signIn']({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
  return services;
}

/** Ends a macrotask later: every run that needs no I/O (the openings here answer at once when released) has run by then. */
const afterMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

it('several copy changes in a row make the opening ahead once more, not once each: one under way, one waiting', async () => {
  const services = await signedIn();
  const release: Array<() => void> = [];
  // Close waits for the opening under way: none is left waiting for the test, whatever it found.
  cleanup.push(async () => {
    for (const answer of release.splice(0)) answer();
  });
  const made = vi.spyOn(RenewalWorklist.prototype, 'prepareOpening').mockImplementation(
    () => new Promise<WorklistWindow>((resolve) => release.push(() => resolve({} as WorklistWindow))),
  );
  const copyChanged = (times: number) => {
    for (let version = 1; version <= times; version += 1) services.events.emit('offline.copyChanged', { version });
  };

  // The first waits out the quiet period after the sign-in's request; the rest of the test asks no request.
  copyChanged(1);
  await vi.waitFor(() => expect(made).toHaveBeenCalledTimes(1), { timeout: 60_000 });
  // While that one reads, five more changes: one opening waits for them all.
  copyChanged(5);
  release.shift()!();
  await vi.waitFor(() => expect(made).toHaveBeenCalledTimes(2), { timeout: 60_000 });
  release.shift()!();
  await afterMicrotasks();
  expect(made).toHaveBeenCalledTimes(2);
  expect(release).toHaveLength(0);
});

it('a sync makes the opening as its list commits, before its details, accounts and DR lists, and that very answer is the one given once it ends', async () => {
  const services = await signedIn();
  const openings: Array<Promise<WorklistWindow>> = [];
  const prepare = RenewalWorklist.prototype.prepareOpening;
  vi.spyOn(RenewalWorklist.prototype, 'prepareOpening').mockImplementation(function (this: RenewalWorklist) {
    const made = prepare.call(this);
    openings.push(made);
    return made;
  });
  // Every call to the service after the first opening began waits for it to be made: the rest of the sync (the
  // details, the linked accounts and their write, the DR lists) then comes after it, whatever the machine's pace.
  const authorized = SessionService.prototype.authorized;
  vi.spyOn(SessionService.prototype, 'authorized').mockImplementation(async function <T>(this: SessionService, work: Parameters<SessionService['authorized']>[0]) {
    if (openings[0]) await openings[0].catch(() => undefined);
    return authorized.call(this, work) as Promise<T>;
  } as SessionService['authorized']);

  await services.handlers['offline.sync'](undefined);
  // The one asked at the end (the copy changed) is the same ask when the first is still being made then (the asks
  // are one at a time: a fresh-clone run's sync ended before it), else a second opening: either way it has ended.
  await vi.waitFor(() => expect(openings.length).toBeGreaterThanOrEqual(1), { timeout: 60_000 });
  const [atCommit, ...later] = await Promise.all(openings);
  // Made before the accounts were written, it still stands after: the records written after the list leave it.
  for (const atEnd of later) expect(atEnd).toBe(atCommit);
  expect(await services.handlers['worklist.query'](WORKLIST_OPENING)).toBe(atCommit);
  // A sign-in, a whole sync and two openings: a fresh-clone run ran out of the default 30 s at load 15-20.
}, 90_000);

it('a copy change holds the background work for the window\u2019s calls it brings: the opening waits before it is made', async () => {
  const services = await signedIn();
  const release: Array<() => void> = [];
  cleanup.push(async () => {
    for (const answer of release.splice(0)) answer();
  });
  let madeAt = Number.NaN;
  const made = vi.spyOn(RenewalWorklist.prototype, 'prepareOpening').mockImplementation(() => {
    madeAt = performance.now();
    return new Promise<WorklistWindow>((resolve) => release.push(() => resolve({} as WorklistWindow)));
  });
  // The sign-in's own quiet period (RequestsFirst's, 300 ms after its answer) waited out first.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const changedAt = performance.now();
  services.events.emit('offline.copyChanged', { version: 1 });
  await vi.waitFor(() => expect(made).toHaveBeenCalledTimes(1), { timeout: 60_000 });
  // Held (CALLS_AFTER_COPY_CHANGED_MS, each turn at most RequestsFirst's longest wait, 250 ms): the page's calls at a
  // sync's end are read before the background's slices, where they came after them (renew16). A timer never fires
  // early, so no load makes this shorter; without the hold the opening began at once (a few ms).
  expect(madeAt - changedAt).toBeGreaterThanOrEqual(240);
});
