/**
 * The Renewals' first rows before the whole window is read (issue 28, branch renew13), through the real dispatch
 * over the sandbox: asked with `mayStillCount` while the window is not read yet, the answer holds the list's first
 * rows in its order with the account manager's entries joined (state, note, a snoozed one left out), its count
 * marked as still counting; the whole answer asked next is final, and its first rows are those very rows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../shared/api/readers.js';
import { WORKLIST_STATES, localDay, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { startSyncedFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const DAY_MS = 86_400_000;
/** Past the opening made ahead after the sync (30 days and a day read ahead): this window is not read yet. */
const HORIZON = 60;

let app: FastApp;
let dataDir: string;
const secrets = new FixedSecretStore();

const worklist = async (query: Record<string, unknown>): Promise<WorklistWindow> => value<WorklistWindow>(await app.call('worklist.query', query));
const ids = (window: WorklistWindow) => window.rows.map((row) => row.policy.cidrId);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-worklist-first-rows-'));
  app = await startSyncedFastApp({ secrets, dataDir });
});

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The active policies ending soonest within the horizon, from the service's list (the worklist's first rows are among them). */
async function soonestEnding(count: number): Promise<CapacityRow[]> {
  const now = Date.now();
  const all = value<{ rows: CapacityRow[] }>(await app.call('capacity.list', { limit: 500 })).rows;
  const endOf = (policy: CapacityRow) => Date.parse(policy.capacityConfiguration?.endDateTime ?? '');
  return all
    .filter((policy) => policy.policyStatus === 'ACTIVE' && endOf(policy) > now && endOf(policy) <= now + HORIZON * DAY_MS)
    .sort((a, b) => endOf(a) - endOf(b))
    .slice(0, count);
}

describe('worklist.query asked with mayStillCount', () => {
  it('answers the first rows with the entries joined and the count still counting; the whole answer is final and begins with those rows', async () => {
    const [noted, snoozed] = await soonestEnding(2);
    if (!noted || !snoozed) throw new Error('the sandbox has too few policies ending in the horizon');
    value(await app.call('worklist.setEntry', { cidrId: noted.cidrId, state: 'renewing', note: 'Call them on Monday' }));
    const nextWeek = localDay(Date.now() + 7 * DAY_MS);
    value(await app.call('worklist.setEntry', { cidrId: snoozed.cidrId, snoozedUntil: nextWeek }));

    const first = await worklist({ horizonDays: HORIZON, limit: 5, mayStillCount: true });
    expect(first.stillCounting).toBe(true);
    expect(first.rows).toHaveLength(5);

    const whole = await worklist({ horizonDays: HORIZON, limit: 500 });
    expect(whole.stillCounting).toBeUndefined();
    // The same rows, in the same order, with the same entries: nothing of the first answer was a guess but its count.
    expect(first.rows).toEqual(whole.rows.slice(0, 5));
    expect(ids(first)).toContain(noted.cidrId);
    expect(first.rows.find((row) => row.policy.cidrId === noted.cidrId)?.entry).toMatchObject({ state: 'renewing', note: 'Call them on Monday' });
    expect(ids(first)).not.toContain(snoozed.cidrId);
    expect(ids(whole)).not.toContain(snoozed.cidrId);
    // What was counted so far, never more than the whole.
    expect(first.total).toBeGreaterThanOrEqual(5);
    expect(first.total).toBeLessThanOrEqual(whole.total);
    for (const state of WORKLIST_STATES) expect(first.stateCounts[state]).toBeLessThanOrEqual(whole.stateCounts[state]);
    for (const customer of first.customers) expect(whole.customers).toContain(customer);

    // The window read now: asked the same way, the whole answer comes at once.
    const again = await worklist({ horizonDays: HORIZON, limit: 5, mayStillCount: true });
    expect(again.stillCounting).toBeUndefined();
    expect(again.total).toBe(whole.total);
    expect(again.rows).toEqual(whole.rows.slice(0, 5));
  });

  it('answers the whole window at once when the first rows read hold none of its page (a filter matching none of them)', async () => {
    const answer = await worklist({ horizonDays: 90, limit: 5, customer: 'Nobody of this book', mayStillCount: true });
    expect(answer.stillCounting).toBeUndefined();
    expect(answer.total).toBe(0);
    expect(answer.rows).toEqual([]);
  });
});
