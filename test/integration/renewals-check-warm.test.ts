/**
 * The Renewals' opening made ahead (app-services.ts) also warms the worklist channel's output check (warm-checks.ts,
 * issue 28, renew17): the first answer a person waits for in the process, be it an answer still counting at a sync's
 * end, is checked by the dispatch with none of zod's object checks left to compile (`new Function`, counted here).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { builtInSandbox } from '../../sandbox/built-in.js';
import { createAppServices } from '../../electron/services/app-services.js';
import { checkedOutput } from '../../electron/services/ipc/kept-answers.js';
import { RenewalWorklist } from '../../electron/services/worklist/renewal-worklist.js';
import { CONTRACT } from '../../shared/ipc/contract.js';
import { WORKLIST_OPENING, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX } from '../unit/api-client/sandbox-fixture.js';
import { compiledDuring } from '../support/compiled-during.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const step of cleanup.splice(0).reverse()) await step();
});

it('after a sync, the opening made ahead leaves the Renewals answer checked with nothing left to compile', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-renewals-warm-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const services = await createAppServices({ dataDir, secrets: new FixedSecretStore(), startSandbox: builtInSandbox({ scale: 50 }) });
  cleanup.push(() => services.close());
  const openings: Array<Promise<WorklistWindow>> = [];
  const prepare = RenewalWorklist.prototype.prepareOpening;
  vi.spyOn(RenewalWorklist.prototype, 'prepareOpening').mockImplementation(function (this: RenewalWorklist) {
    const made = prepare.call(this);
    openings.push(made);
    return made;
  });
  await services.sandbox.start();
  // The sign-in's sync: its list's commit and its end each ask the opening ahead.
  await services.handlers['session.signIn']({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
  await vi.waitFor(() => expect(openings.length).toBeGreaterThanOrEqual(1), { timeout: 60_000 });
  await openings[0];

  // A window of the copy's policies with their parts (instance, region, window, pricing): every shape is checked.
  const answer = await services.handlers['worklist.query']({ ...WORKLIST_OPENING, horizonDays: 90, limit: 100 });
  expect(answer.rows.length).toBeGreaterThan(0);
  let checked: ReturnType<typeof checkedOutput> | undefined;
  expect(compiledDuring(() => (checked = checkedOutput(CONTRACT['worklist.query'].output, answer)))).toBe(0);
  expect(checked?.success).toBe(true);
});
