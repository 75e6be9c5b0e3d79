/**
 * A money action whose outcome is unknown locks the
 * policy's money actions until a read-back settles it, and N calls for one
 * policy send exactly one request. Real IPC dispatch, real services, the
 * sandbox over HTTP with its fault controls; requests counted on its side.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import type { MoneyState } from '../../shared/ipc/money.js';
import type { Result } from '../../shared/ipc/result.js';
import { AFTER_READ_BACKS_MS, ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value, take, moneyStock } from '../support/ipc-result.js';

/** Longer than the slowest POST below (AFTER_READ_BACKS_MS), so "not done yet" before it is never taken as final. */
const FINAL_AFTER_MS = AFTER_READ_BACKS_MS + 2_000;
const PURCHASE = '/external/api/v1/flexcompute/purchase';

let app: FastApp;
let ready: CapacityPolicy[];
let active: CapacityPolicy[];
let cyber: CyberListItem[];
const pushed: MoneyState[] = [];

function kindOf(result: Result<unknown>): string {
  return result.ok ? 'ok' : result.error.kind;
}

async function moneyState(cidrId: string): Promise<MoneyState> {
  return value<MoneyState>(await app.call('money.state', { cidrId }));
}

/** Presses "Check status" until the read-back settles the policy (the service may carry a slow request out late). */
async function checkUntilFree(cidrId: string): Promise<MoneyState> {
  let state: MoneyState | undefined;
  await vi.waitFor(
    async () => {
      state = value<MoneyState>(await app.call('money.check', { cidrId }));
      expect(state.state).toBe('free');
    },
    { timeout: FINAL_AFTER_MS + 3_000, interval: 250 },
  );
  if (!state) throw new Error('never checked');
  return state;
}

beforeAll(async () => {
  app = await startFastApp({ shortTimeouts: true, moneyFinalAfterMs: FINAL_AFTER_MS });
  app.services.events.subscribe((event, payload) => {
    if (event === 'money.changed') pushed.push(payload as MoneyState);
  });
  await app.signIn('sandbox', ALEX);
  ({ ready, active, cyber } = await moneyStock(app));
});
afterAll(() => app.close());
beforeEach(() => app.controls.resetStats());
afterEach(() => app.controls.clearFaults());

describe('N calls for one policy send exactly one request', () => {
  it('twenty parallel purchases of one policy send one POST and all get its one outcome', async () => {
    const policy = take(ready);
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', latencyMs: 150 });
    const results = await Promise.all(Array.from({ length: 20 }, () => app.call('capacity.purchase', { cidrId: policy.cidrId })));
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);
    // They joined the one request: every caller learns it went through, none is told only "wait".
    for (const result of results) expect(result).toMatchObject({ ok: true, value: { cidrId: policy.cidrId, policyStatus: 'ACTIVE' } });
    expect(await moneyState(policy.cidrId)).toMatchObject({ state: 'free' });
  });

  it('twenty purchases arriving one after another while the service answers 500 send one POST', async () => {
    const policy = take(ready);
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', errorRate: 1, errorStatus: 500 });
    // As calls from several windows and IPC callers arrive: spread over 400 ms, each after the last 500 came back.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sleep(i * 20).then(() => app.call('capacity.purchase', { cidrId: policy.cidrId }))),
    );
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);
    expect(results.every((result) => !result.ok)).toBe(true);
    // Joined the request in flight (its 500), or arrived once it was locked: never a second POST.
    expect(results.map(kindOf).every((kind) => kind === 'server' || kind === 'unsettled')).toBe(true);
    expect(await moneyState(policy.cidrId)).toMatchObject({ state: 'uncertain', action: 'purchase' });

    // The policy does not show as purchased, and only after the final-after window is that taken as final.
    await app.controls.clearFaults();
    expect(value<MoneyState>(await app.call('money.check', { cidrId: policy.cidrId }))).toMatchObject({ state: 'uncertain' });
    const settled = await checkUntilFree(policy.cidrId);
    expect(settled).toMatchObject({ state: 'free', action: 'purchase', outcome: 'not-done' });
    expect(settled.message).toContain('it did not go through');
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);

    // Settled: the user may buy it now, and it is sent.
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: true, value: { policyStatus: 'ACTIVE' } });
    expect((await app.controls.stats()).purchaseCapacity).toBe(2);
  });
});

describe('an unknown outcome locks the policy until a read-back settles it', () => {
  it('after a timed-out purchase, purchase and cancel are refused without a request until Check status sees it purchased', async () => {
    const policy = take(ready);
    pushed.length = 0;
    // The service carries the purchase out later, after our timeout and our three read-backs.
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', latencyMs: AFTER_READ_BACKS_MS });
    const first = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(first).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(first.ok ? '' : first.error.message).toContain('Nothing will be sent again until we know');
    expect(await moneyState(policy.cidrId)).toMatchObject({ state: 'uncertain', action: 'purchase', cidrId: policy.cidrId });
    // Every window hears of it.
    expect(pushed.map((state) => state.state)).toEqual(['in-flight', 'uncertain']);

    const again = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(again).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    expect(again.ok ? '' : again.error.message).toContain('nothing is sent for it until we know');
    expect(await app.call('capacity.cancel', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    let stats = await app.controls.stats();
    expect([stats.purchaseCapacity, stats.cancelCapacity]).toEqual([1, 0]);

    const settled = await checkUntilFree(policy.cidrId);
    expect(settled).toMatchObject({ state: 'free', action: 'purchase', outcome: 'done' });
    expect(settled.message).toContain('the purchase went through. It was not sent again.');
    expect(pushed.at(-1)).toMatchObject({ state: 'free', outcome: 'done', cidrId: policy.cidrId });
    stats = await app.controls.stats();
    expect(stats.purchaseCapacity).toBe(1);
  });

  it('a timed-out cancellation is locked, then settled by Check status', async () => {
    const policy = take(active);
    await app.controls.addFault({ pathPrefix: '/external/api/v1/flexcompute/cancel', method: 'POST', latencyMs: AFTER_READ_BACKS_MS });
    expect(await app.call('capacity.cancel', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(await app.call('capacity.cancel', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    expect((await app.controls.stats()).cancelCapacity).toBe(1);
    expect(await checkUntilFree(policy.cidrId)).toMatchObject({ action: 'cancel', outcome: 'done' });
    expect((await app.controls.stats()).cancelCapacity).toBe(1);
  });

  it('a timed-out DR termination is locked, then settled by Check status', async () => {
    const dr = take(cyber);
    await app.controls.addFault({ method: 'POST', pathPrefix: '/external/api/v1/policies/cyber/terminate', latencyMs: AFTER_READ_BACKS_MS });
    expect(await app.call('cyber.terminate', { cidrId: dr.cidrId })).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(await app.call('cyber.terminate', { cidrId: dr.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    expect((await app.controls.stats()).terminateCyberEvent).toBe(1);
    expect(await checkUntilFree(dr.cidrId)).toMatchObject({ action: 'terminate', outcome: 'done' });
    expect((await app.controls.stats()).terminateCyberEvent).toBe(1);
  });

  it('any read of the policy (describe) settles it too, and a dropped purchase unlocks only once it is final', async () => {
    const policy = take(ready);
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', dropRate: 1 });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'offline' } });
    await app.controls.clearFaults();
    // Read before the window closes: "not purchased yet" is not final, the lock stays.
    value(await app.call('capacity.describe', { cidrId: policy.cidrId }));
    expect(await moneyState(policy.cidrId)).toMatchObject({ state: 'uncertain' });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);

    const since = Date.parse((await moneyState(policy.cidrId)).since ?? '');
    await sleep(Math.max(0, since + FINAL_AFTER_MS - Date.now() + 100));
    value(await app.call('capacity.describe', { cidrId: policy.cidrId }));
    // What the describe saw prompts a read-back of its own, made as the sender (see money-owner.test.ts).
    await vi.waitFor(async () => expect(await moneyState(policy.cidrId)).toMatchObject({ state: 'free' }));
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: true });
    expect((await app.controls.stats()).purchaseCapacity).toBe(2);
  });

  it('policy ids are plain text keys: a prototype-looking id is just an unknown, free policy', async () => {
    for (const cidrId of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(await moneyState(cidrId)).toMatchObject({ state: 'free', cidrId });
      expect(await app.call('money.check', { cidrId })).toMatchObject({ ok: true, value: { state: 'free' } });
    }
  });
});
