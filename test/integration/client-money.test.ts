/**
 * Money actions through the real IPC dispatch and the real services, counted
 * on the sandbox's side: one request per policy at a time, never resent, and
 * an unanswered request re-checked so the user learns what happened.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { take, moneyStock } from '../support/ipc-result.js';

let app: FastApp;
let ready: CapacityPolicy[];
let active: CapacityPolicy[];
let cyber: CyberListItem[];

beforeAll(async () => {
  // The last read-back 2.6 s after the timeout: after a purchase carried out 3 s after it was sent (below).
  app = await startFastApp({ shortTimeouts: true, moneyCheckDelaysMs: [0, 300, 2_300] });
  await app.signIn('sandbox', ALEX);
  ({ ready, active, cyber } = await moneyStock(app));
});
afterAll(() => app.close());
beforeEach(() => app.controls.resetStats());
afterEach(() => app.controls.clearFaults());

describe('one money request per policy at a time', () => {
  it('sends exactly one purchase for two concurrent IPC calls on the same policy; both learn its outcome', async () => {
    const policy = take(ready);
    await app.controls.addFault({ method: 'POST', latencyMs: 100 });
    const [first, second] = await Promise.all([
      app.call('capacity.purchase', { cidrId: policy.cidrId }),
      app.call('capacity.purchase', { cidrId: policy.cidrId }),
    ]);
    expect(first).toMatchObject({ ok: true, value: { cidrId: policy.cidrId, policyStatus: 'ACTIVE' } });
    // The second joined the one request in flight: the same answer, no second POST.
    expect(second).toEqual(first);
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);

    // Once answered, the lock lets a new attempt through (the service then refuses it).
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'rejected', field: 'cidrId' } });
    expect((await app.controls.stats()).purchaseCapacity).toBe(2);
  });

  it('lets different policies go at the same time, and joins repeated cancels and terminations too', async () => {
    const [a, b] = [take(ready), take(ready)];
    const both = await Promise.all([
      app.call('capacity.purchase', { cidrId: a.cidrId }),
      app.call('capacity.purchase', { cidrId: b.cidrId }),
    ]);
    expect(both.every((r) => r.ok)).toBe(true);

    const toCancel = take(active);
    const dr = take(cyber);
    const results = await Promise.all([
      app.call('capacity.cancel', { cidrId: toCancel.cidrId }),
      app.call('capacity.cancel', { cidrId: toCancel.cidrId }),
      app.call('cyber.terminate', { cidrId: dr.cidrId }),
      app.call('cyber.terminate', { cidrId: dr.cidrId }),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : r.error.kind))).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(results[1]).toEqual(results[0]);
    expect(results[3]).toEqual(results[2]);
    expect(results[0]).toMatchObject({ ok: true, value: { fee: expect.any(Number) } });
    expect(results[2]).toMatchObject({ ok: true, value: { outcome: 'created', eventId: expect.any(Number) } });
    const stats = await app.controls.stats();
    expect([stats.purchaseCapacity, stats.cancelCapacity, stats.terminateCyberEvent]).toEqual([2, 1, 1]);
  });
});

describe('an unanswered money request is re-checked, never resent', () => {
  it('tells the user a timed-out purchase went through after all', async () => {
    const policy = take(ready);
    // The service carries the purchase out 3 s later: after the timeout (APP_TIMEOUTS, fired up to half a second
    // late, more on a loaded machine), before the last read-back. At 1.2 s a late timeout could let the answer in.
    await app.controls.addFault({ method: 'POST', latencyMs: 3_000 });
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(result.ok ? '' : result.error.message).toBe(
      `The purchase of policy ${policy.cidrId} got no clear answer (the service did not answer in time). ` +
        'The policy now shows as purchased: the purchase went through. It was not sent again.',
    );
    const stats = await app.controls.stats();
    expect(stats.purchaseCapacity).toBe(1);
    expect(stats.describeCapacity).toBeGreaterThanOrEqual(2);
  });

  it('tells the user a dropped purchase did not happen (yet), and sends nothing again', async () => {
    const policy = take(ready);
    await app.controls.addFault({ method: 'POST', dropRate: 1 });
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'offline' } });
    expect(result.ok ? '' : result.error.message).toContain('does not show as purchased yet (checked 3 times');
    expect(result.ok ? '' : result.error.message).toContain('Nothing will be sent again until we know');
    const stats = await app.controls.stats();
    expect(stats.purchaseCapacity).toBe(1);
    expect(stats.describeCapacity).toBe(3);
  });

  it('re-checks a timed-out cancel and a timed-out termination', async () => {
    const policy = take(active);
    const dr = take(cyber);
    await app.controls.addFault({ method: 'POST', latencyMs: 3_000 });
    const [cancel, terminate] = await Promise.all([
      app.call('capacity.cancel', { cidrId: policy.cidrId }),
      app.call('cyber.terminate', { cidrId: dr.cidrId }),
    ]);
    expect(cancel.ok ? '' : cancel.error.message).toContain('now shows as canceled');
    expect(terminate.ok ? '' : terminate.error.message).toContain('now shows as terminated');
    const stats = await app.controls.stats();
    expect([stats.cancelCapacity, stats.terminateCyberEvent]).toEqual([1, 1]);
  });

  it('says so when the policy cannot be checked either', async () => {
    const policy = take(ready);
    await app.controls.addFault({ dropRate: 1 });
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result.ok ? '' : result.error.message).toContain('The policy could not be checked either (the connection was lost)');
    expect(result.ok ? '' : result.error.message).toContain('Nothing will be sent again until we know');
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);
  });

  it('does not re-check when the service answered: a refusal is final', async () => {
    const policy = take(active);
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'rejected', field: 'cidrId' } });
    expect((await app.controls.stats()).describeCapacity).toBe(0);
  });
});
