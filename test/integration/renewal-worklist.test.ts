/**
 * The renewal worklist through the real dispatch: the local copy's policies
 * launching or ending within the horizon, soonest end first, with the
 * account manager's own entry per policy, which a re-sync keeps.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../shared/api/readers.js';
import { localDay, type WorklistEntry, type WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX, JORDAN, startFastApp, startSyncedFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const DAY_MS = 86_400_000;

let app: FastApp;
let dataDir: string;
const secrets = new FixedSecretStore();

async function worklist(query: Record<string, unknown> = {}): Promise<WorklistWindow> {
  return value<WorklistWindow>(await app.call('worklist.query', { limit: 500, ...query }));
}

function inWindow(policy: CapacityRow, days: number, now: number): boolean {
  const launch = Date.parse(policy.capacityConfiguration?.launchDateTime ?? '');
  const end = Date.parse(policy.capacityConfiguration?.endDateTime ?? '');
  const within = (at: number) => at > now && at <= now + days * DAY_MS;
  return (
    (within(launch) && (policy.policyStatus === 'READY_FOR_PURCHASE' || policy.policyStatus === 'ACTIVE')) ||
    (within(end) && policy.policyStatus === 'ACTIVE')
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-worklist-'));
  app = await startSyncedFastApp({ secrets, dataDir });
});

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('worklist.query', () => {
  it('lists exactly the policies launching or ending within each horizon, soonest end first', async () => {
    const all = value<{ rows: CapacityRow[] }>(await app.call('capacity.list', { limit: 500 })).rows;
    for (const horizonDays of [7, 30, 60, 90] as const) {
      const now = Date.now();
      const answer = await worklist({ horizonDays });
      const expected = all.filter((policy) => inWindow(policy, horizonDays, now)).map((policy) => policy.cidrId);
      expect(answer.rows.map((row) => row.policy.cidrId).sort()).toEqual(expected.sort());
      expect(answer.total).toBe(expected.length);
      const ends = answer.rows.map((row) => Date.parse(row.policy.capacityConfiguration?.endDateTime ?? ''));
      expect(ends).toEqual([...ends].sort((a, b) => a - b));
      expect(answer.origin?.source).toBe('replica');
    }
    expect((await worklist({ horizonDays: 90 })).total).toBeGreaterThan((await worklist({ horizonDays: 7 })).total);
  });

  it('names each policy’s customer from the book (by its linked account), and filters by it', async () => {
    const before = await worklist({ horizonDays: 90 });
    // Nobody is in the book yet: no policy has a customer.
    expect(before.rows.every((row) => row.customer === null)).toBe(true);
    const account = before.rows[0]?.policy.cspAccountName;
    if (!account) throw new Error('the seed has no upcoming policy with an account');
    value(await app.call('customers.save', { name: '__proto__', accounts: [account.toUpperCase()] }));

    const answer = await worklist({ horizonDays: 90 });
    for (const row of answer.rows) expect(row.customer).toBe(row.policy.cspAccountName === account ? '__proto__' : null);
    expect(answer.customers).toEqual(['__proto__']);
    const filtered = await worklist({ horizonDays: 90, customer: '__proto__' });
    expect(filtered.rows.length).toBeGreaterThan(0);
    expect(filtered.rows.every((row) => row.customer === '__proto__')).toBe(true);
    expect(filtered.total).toBe(answer.rows.filter((row) => row.customer === '__proto__').length);
  });

  it('pages in order', async () => {
    const whole = await worklist({ horizonDays: 90 });
    const first = await worklist({ horizonDays: 90, limit: 3 });
    const second = await worklist({ horizonDays: 90, limit: 3, offset: 3 });
    expect([...first.rows, ...second.rows].map((row) => row.policy.cidrId)).toEqual(whole.rows.slice(0, 6).map((row) => row.policy.cidrId));
  });
});

describe('worklist.setEntry', () => {
  it('keeps the state and note per policy, filters by state, and keeps them across a full re-sync', async () => {
    const [first, second] = (await worklist({ horizonDays: 90 })).rows;
    if (!first || !second) throw new Error('the seed has too few upcoming policies');
    const kept = value<WorklistEntry>(
      await app.call('worklist.setEntry', { cidrId: first.policy.cidrId, state: 'contacted', note: '  Called Dana; \u202Eback Tuesday  ', snoozedUntil: null }),
    );
    expect(kept.note).toBe('Called Dana; \u202Eback Tuesday');
    value(await app.call('worklist.setEntry', { cidrId: second.policy.cidrId, state: 'letting-go', note: '', snoozedUntil: null }));

    const contacted = await worklist({ horizonDays: 90, states: ['contacted'] });
    expect(contacted.rows.map((row) => row.policy.cidrId)).toEqual([first.policy.cidrId]);
    expect(contacted.rows[0]?.entry?.note).toBe('Called Dana; \u202Eback Tuesday');
    expect(contacted.stateCounts.contacted).toBe(1);
    expect(contacted.stateCounts['letting-go']).toBe(1);

    value(await app.call('offline.sync'));
    const after = await worklist({ horizonDays: 90, states: ['contacted', 'letting-go'] });
    expect(after.rows.map((row) => [row.policy.cidrId, row.entry?.state])).toEqual([
      [first.policy.cidrId, 'contacted'],
      [second.policy.cidrId, 'letting-go'],
    ]);
  });

  it('leaves a snoozed policy out until its day, unless asked for', async () => {
    const [row] = (await worklist({ horizonDays: 90, states: ['to-do'] })).rows;
    if (!row) throw new Error('no policy to snooze');
    // The day after tomorrow: still a later day if midnight passes before the worklist is read (CI runs at any hour).
    const day = localDay(Date.now() + 2 * DAY_MS);
    value(await app.call('worklist.setEntry', { cidrId: row.policy.cidrId, state: 'to-do', note: '', snoozedUntil: day }));
    expect((await worklist({ horizonDays: 90 })).rows.some((r) => r.policy.cidrId === row.policy.cidrId)).toBe(false);
    expect((await worklist({ horizonDays: 90, includeSnoozed: true })).rows.some((r) => r.policy.cidrId === row.policy.cidrId)).toBe(true);
  });

  it('changes only the fields given: a state and a note sent at once both land (a note saved with the row’s old state put it back)', async () => {
    const [row] = (await worklist({ horizonDays: 90, states: ['to-do'] })).rows;
    if (!row) throw new Error('no policy to work on');
    const cidrId = row.policy.cidrId;
    // As the row's state control and the note dialog send them, both in flight together.
    const [stateKept, noteKept] = await Promise.all([
      app.call('worklist.setEntry', { cidrId, state: 'renewing' }),
      app.call('worklist.setEntry', { cidrId, note: 'Renewal call on Monday', snoozedUntil: null }),
    ]);
    expect(stateKept.ok && noteKept.ok).toBe(true);
    const after = (await worklist({ horizonDays: 90, states: ['renewing'] })).rows.find((r) => r.policy.cidrId === cidrId);
    expect(after?.entry).toMatchObject({ state: 'renewing', note: 'Renewal call on Monday', snoozedUntil: null });
    // A note alone leaves the state; a state alone leaves the note.
    value(await app.call('worklist.setEntry', { cidrId, note: 'Sent the quote' }));
    value(await app.call('worklist.setEntry', { cidrId, state: 'handled' }));
    const last = (await worklist({ horizonDays: 90, states: ['handled'] })).rows.find((r) => r.policy.cidrId === cidrId);
    expect(last?.entry).toMatchObject({ state: 'handled', note: 'Sent the quote' });
    // Nothing to change is refused, saying what is expected.
    const empty = await app.call('worklist.setEntry', { cidrId });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error.message).toContain('Say what to change');
  });

  it('refuses a hostile or malformed entry with a clear message', async () => {
    const proto = await app.call('worklist.setEntry', { cidrId: '__proto__', state: 'contacted', note: '', snoozedUntil: null });
    expect(proto.ok).toBe(true);
    expect((await worklist({ horizonDays: 90 })).rows.length).toBeGreaterThan(0);
    const bad = await app.call('worklist.setEntry', { cidrId: 'sc_1', state: 'maybe', note: '', snoozedUntil: null });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.kind).toBe('invalid-input');
    const late = await app.call('worklist.setEntry', { cidrId: 'sc_1', state: 'handled', note: 'x'.repeat(2_001), snoozedUntil: null });
    expect(late.ok).toBe(false);
  });
});

describe('the worklist entries are the account manager’s own data', () => {
  it('outlive a copy wiped at sign-out and a restart, and another user never sees them', async () => {
    const [row] = (await worklist({ horizonDays: 90, states: ['contacted'] })).rows;
    if (!row) throw new Error('an earlier test keeps a contacted policy');
    const cidrId = row.policy.cidrId;

    // The copy is deleted (as sign-out offers), then the app restarts on the same data folder.
    value(await app.call('offline.wipe'));
    value(await app.call('session.signOut'));
    await app.close();
    app = await startFastApp({ secrets, dataDir });

    // Another user of the same computer: none of Alex's entries.
    value(await app.call('session.signIn', { profileId: 'sandbox', username: JORDAN.username, password: JORDAN.password }));
    value(await app.call('offline.sync'));
    const jordans = await worklist({ horizonDays: 90, includeSnoozed: true });
    expect(jordans.rows.every((r) => r.entry === null)).toBe(true);
    expect(jordans.stateCounts.contacted).toBe(0);
    value(await app.call('session.signOut'));

    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    value(await app.call('offline.sync'));
    const kept = await worklist({ horizonDays: 90, states: ['contacted'] });
    expect(kept.rows.map((r) => [r.policy.cidrId, r.entry?.state, r.entry?.note])).toEqual([[cidrId, 'contacted', 'Called Dana; \u202Eback Tuesday']]);
  });
});
