/**
 * A money request whose outcome is unknown stays locked across a restart or a
 * crash: it is recorded in the data folder before it is sent, and reloaded at
 * start. A record that cannot be read never unlocks anything. Real services,
 * the sandbox over HTTP, requests counted on its side.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { MoneyState } from '../../shared/ipc/money.js';
import { PENDING_MONEY_FILE } from '../../electron/services/money/pending-money-file.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const PURCHASE = '/external/api/v1/flexcompute/purchase';
/** Longer than the purchase below is held back (3 s), so a read-back before it is done is never taken as final. */
const FINAL_AFTER_MS = 6_000;
let dataDir = '';

async function start(): Promise<FastApp> {
  const app = await startFastApp({ dataDir, shortTimeouts: true, moneyCheckDelaysMs: [0], moneyFinalAfterMs: FINAL_AFTER_MS });
  await app.signIn('sandbox', ALEX);
  return app;
}
const readyPolicies = async (app: FastApp) =>
  value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'READY_FOR_PURCHASE', limit: 20 })).rows;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-money-restart-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('unconfirmed money actions survive a restart', () => {
  it('a purchase in flight is on disk before it is sent; after a restart its policy stays locked until a read-back settles it', async () => {
    const first = await start();
    const policy = (await readyPolicies(first))[0] as CapacityPolicy;
    // Well past the timeout (APP_TIMEOUTS): at 1 s a loaded machine's late timeout let the first read-back see it done.
    await first.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', latencyMs: 3_000 });
    const purchase = first.call('capacity.purchase', { cidrId: policy.cidrId });
    // While it is on its way (a crash now would lose the in-memory lock), the record names it.
    // The record is kept until a read-back settles it, so waiting long for the request to arrive proves the same;
    // vi.waitFor's default second was not enough at load 20.
    await vi.waitFor(async () => expect((await first.controls.stats()).purchaseCapacity).toBe(1), { timeout: 5_000 });
    const record = join(dataDir, PENDING_MONEY_FILE);
    const written = JSON.parse(await readFile(record, 'utf8')) as { entries: { cidrId: string; action: string; profileId: string; username: string }[] };
    expect(written.entries).toEqual([expect.objectContaining({ cidrId: policy.cidrId, action: 'purchase', profileId: 'sandbox', username: ALEX.username })]);
    expect((await stat(record)).mode & 0o777).toBe(0o600);
    expect(await readFile(record, 'utf8')).not.toContain(ALEX.password);
    expect(await purchase).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    await first.close();

    const second = await start();
    try {
      await second.controls.resetStats();
      const after = value<MoneyState>(await second.call('money.state', { cidrId: policy.cidrId }));
      expect(after).toMatchObject({ state: 'uncertain', action: 'purchase' });
      expect(after.message).toContain('Capacity Desk was closed before the purchase');
      expect(await second.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
      expect((await second.controls.stats()).purchaseCapacity).toBe(0);
      // Check status reads it back (the first run's purchase was carried out late) and frees it; the record forgets it.
      await vi.waitFor(
        async () => expect(value<MoneyState>(await second.call('money.check', { cidrId: policy.cidrId }))).toMatchObject({ state: 'free' }),
        { timeout: 6_000, interval: 200 },
      );
      await vi.waitFor(async () => expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({ version: 1, entries: [] }));
    } finally {
      await second.close();
    }
  });

  it('an unreadable record is kept aside; policies it still names stay locked; if it cannot be told which, no money action is sent', async () => {
    const record = join(dataDir, PENDING_MONEY_FILE);
    // Legible entries in a file of another version: those policies stay locked, the file is kept aside.
    const probe = await start();
    const [named, other] = (await readyPolicies(probe)) as [CapacityPolicy, CapacityPolicy];
    await probe.close();
    await writeFile(record, JSON.stringify({ version: 7, entries: [{ profileId: 'sandbox', username: ALEX.username, cidrId: named.cidrId, action: 'purchase', since: Date.now() }] }));
    const legible = await start();
    try {
      await legible.controls.resetStats();
      expect(await legible.call('capacity.purchase', { cidrId: named.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
      expect((await legible.controls.stats()).purchaseCapacity).toBe(0);
      expect((await readdir(dataDir)).some((name) => name.startsWith(`${PENDING_MONEY_FILE}.replaced-`))).toBe(true);
    } finally {
      await legible.close();
    }

    // Cut short: which policies it named cannot be told. Nothing is sent, for any policy, and a restart does not lift it.
    await writeFile(record, '{"version":1,"entries":[{"profileId":"sandbox","username":"alex');
    for (let run = 0; run < 2; run += 1) {
      const blocked = await start();
      try {
        await blocked.controls.resetStats();
        const refused = await blocked.call('capacity.purchase', { cidrId: other.cidrId });
        expect(refused).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
        expect(refused.ok ? '' : refused.error.message).toContain(`${PENDING_MONEY_FILE}.unreadable-`);
        expect(value<MoneyState>(await blocked.call('money.state', { cidrId: other.cidrId }))).toMatchObject({ state: 'uncertain' });
        expect((await blocked.controls.stats()).purchaseCapacity).toBe(0);
      } finally {
        await blocked.close();
      }
    }
    const kept = (await readdir(dataDir)).filter((name) => name.startsWith(`${PENDING_MONEY_FILE}.unreadable-`));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dataDir, kept[0] as string), 'utf8')).toContain('"username":"alex');
    const log = await readFile(join(dataDir, 'logs', 'capacity-desk.log'), 'utf8');
    expect(log).toMatch(/record of unconfirmed money actions could not be read/);
  });
});
