/**
 * A money request whose outcome is unknown can be settled only by reading the
 * policy back as the user who sent it, in the environment it was sent to:
 * another environment may hold a different policy with the same id, another
 * user may see it differently. Real services, the sandbox over HTTP, its
 * request counters.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { MoneyState } from '../../shared/ipc/money.js';
import { ALEX, JORDAN, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const PURCHASE = '/external/api/v1/flexcompute/purchase';
const DESCRIBE = '/external/api/v1/flexcompute/describe';
let app: FastApp;
let ready: CapacityPolicy[];
let mirror = '';

const signIn = async (profileId: string, user: { username: string; password: string }) => {
  value(await app.call('session.signOut'));
  await app.signIn(profileId, user);
};
const state = async (cidrId: string) => value<MoneyState>(await app.call('money.state', { cidrId }));

/** An app signed in to the sandbox as Alex, with a second environment on the same service: the same policy ids, a different environment. */
async function startWithMirror(options: Parameters<typeof startFastApp>[0]): Promise<void> {
  app = await startFastApp(options);
  await app.signIn('sandbox', ALEX);
  mirror = value<{ id: string }>(await app.call('profiles.save', { name: 'Mirror', baseUrl: app.services.sandbox.url })).id;
  ready = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'READY_FOR_PURCHASE', limit: 20 })).rows;
}

afterEach(() => app.close());

describe('a money read-back settles only as the user and environment that sent it', () => {
  it('another user of the same environment cannot settle it: nothing is read, it stays locked, and the sender can', async () => {
    await startWithMirror({ shortTimeouts: true, moneyCheckDelaysMs: [500, 300], moneyFinalAfterMs: 8_000 });
    const policy = ready.shift() as CapacityPolicy;
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', latencyMs: 4_000 });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    await app.controls.clearFaults();
    expect(await state(policy.cidrId)).toMatchObject({ state: 'uncertain', action: 'purchase' });

    await signIn('sandbox', JORDAN);
    await app.controls.resetStats();
    const checked = value<MoneyState>(await app.call('money.check', { cidrId: policy.cidrId }));
    expect(checked).toMatchObject({ state: 'uncertain', action: 'purchase' });
    expect(checked.message).toContain(`sent by ${ALEX.username}`);
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    const stats = await app.controls.stats();
    expect([stats.describeCapacity, stats.purchaseCapacity]).toEqual([0, 0]);

    await signIn('sandbox', ALEX);
    await vi.waitFor(
      async () => expect(value<MoneyState>(await app.call('money.check', { cidrId: policy.cidrId }))).toMatchObject({ state: 'free', outcome: 'done' }),
      { timeout: 8_000, interval: 250 },
    );
  });

  it('a switch of environment while its read-backs are due: none is made in the other environment, and it stays locked where it was sent', async () => {
    // The app's own timeouts: the held read-back must not time out while it waits.
    await startWithMirror({ moneyCheckDelaysMs: [0, 300], moneyFinalAfterMs: 8_000 });
    const policy = ready.shift() as CapacityPolicy;
    // The purchase is lost on the way back (no answer, so its outcome is unknown), and the first read-back is held by the
    // sandbox until the switch is done: it was made as the sender and answers after the switch, so it settles nothing;
    // the next comes after the switch. Conditions, not times (the switch once outlasted the half second before a read-back).
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', dropRate: 1 });
    await app.controls.addFault({ pathPrefix: `${DESCRIBE}/${policy.cidrId}`, method: 'GET', hold: true });
    await app.controls.resetStats();
    const purchase = app.call('capacity.purchase', { cidrId: policy.cidrId });
    await vi.waitFor(async () => expect((await app.controls.stats()).describeCapacity).toBe(1), { timeout: 20_000, interval: 100 });
    await signIn(mirror, ALEX);
    await app.controls.clearFaults();
    const answer = await purchase;
    expect(answer).toMatchObject({ ok: false, error: { kind: 'offline' } });
    expect(answer.ok ? '' : answer.error.message).toContain('only their own session can read it back');
    // Sent once; read once, as the sender, before the switch; nothing read in the other environment.
    expect(await app.controls.stats()).toMatchObject({ purchaseCapacity: 1, describeCapacity: 1 });

    // In the mirror environment the id names another policy: free there; still locked where it was sent.
    expect(await state(policy.cidrId)).toMatchObject({ state: 'free', profileId: mirror });
    await signIn('sandbox', ALEX);
    expect(await state(policy.cidrId)).toMatchObject({ state: 'uncertain', profileId: 'sandbox' });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
  });
});
