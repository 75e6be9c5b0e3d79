import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacityPage, MessageResponse, type CapacityPolicy } from '../../shared/api/capacity.js';
import { QUERY, parseCancellationFee } from '../../shared/api/contract-choices.js';
import { SANDBOX_TERMS } from '../../shared/money/agreement-terms.js';
import { estimateFee } from '../../shared/money/fee-schedule.js';
import { ALEX, Sandbox, expectBody } from './helpers.js';

/**
 * The Sandbox environment's estimate (its terms, the shared arithmetic) against
 * what the sandbox charges over HTTP: for any instant around a policy's
 * launch and window, the same fee.
 */
const DAY = 86_400_000;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start({ seed: 23 });
});
afterAll(() => sandbox.close());

describe('the Sandbox environment’s fee estimate is what the sandbox charges', () => {
  it('for any cancel instant from 60 days before launch to the end of the window', async () => {
    const token0 = await sandbox.signIn(ALEX);
    const page = expectBody(
      await sandbox.call('listCapacities', token0, { query: { [QUERY.status]: 'ACTIVE', [QUERY.pageSize]: 100 } }),
      200,
      CapacityPage,
    );
    const active = page.data;
    expect(active.length).toBeGreaterThan(5);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: active.length - 1 }), fc.double({ min: -60, max: 0.99, noNaN: true }), async (index, position) => {
        await sandbox.reset();
        const policy = active[index] as CapacityPolicy;
        const launchMs = Date.parse(policy.capacityConfiguration.launchDateTime);
        const endMs = Date.parse(policy.capacityConfiguration.endDateTime);
        // Negative positions are days before launch; 0..1 is the share of the window gone.
        const now = Math.round(position < 0 ? launchMs + position * DAY : launchMs + position * (endMs - launchMs));
        const seconds = Math.floor(now / 1000) * 1000;
        await sandbox.setClock({ now: new Date(seconds).toISOString(), frozen: true });
        const token = await sandbox.signIn(ALEX);
        const answer = expectBody(await sandbox.call('cancelCapacity', token, { body: { cidrId: policy.cidrId } }), 200, MessageResponse);
        const estimate = estimateFee(SANDBOX_TERMS.cancellation, { ourPrice: policy.pricing.ourPrice, launchMs, endMs }, seconds);
        expect(parseCancellationFee(answer.message)).toBe(estimate?.fee);
      }),
      { numRuns: 40 },
    );
    // Forty resets and scrypt sign-ins are set-up, not the subject: 16 s of the integration default 30 s at load 11-17.
  }, 120_000);
});
