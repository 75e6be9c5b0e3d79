/**
 * The Renewals' opening made ahead after each refresh (app-services.ts, issue 28) is background work asked once per
 * copy change: several refreshes in a row must cost one more opening, not one each (review8 found them queued one
 * per refresh, each a read of the copy that a click arriving meanwhile waits behind).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { createAppServices, type AppServices } from '../../electron/services/app-services.js';
import { RenewalWorklist } from '../../electron/services/worklist/renewal-worklist.js';
import type { WorklistWindow } from '../../shared/ipc/worklist.js';
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
