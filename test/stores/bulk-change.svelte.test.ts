import { calls, answer, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { BulkChangeRun } from '../../renderer/stores/bulk-change.svelte.js';
import { capacityDetailOf } from './support/fixtures.js';
import { SANDBOX_FEE_SCHEDULE } from '../../shared/money/fee-schedule.js';

function policy(cidrId: string, status = 'ACTIVE'): CapacityRow {
  return {
    cidrId,
    policyName: `policy ${cidrId}`,
    policyStatus: status,
    capacityConfiguration: { launchDateTime: '2026-12-01T00:00:00+00:00', endDateTime: '2026-12-31T00:00:00+00:00', autoRenewalEnabled: false, frequency: null },
    pricing: { ourPrice: 1000 },
  } as CapacityRow;
}

const SERVER: AppError = { kind: 'server', message: 'The service had a problem' };
const TIMEOUT: AppError = { kind: 'timeout', message: 'No answer in time' };
const rows = ['sc_1', 'sc_2', 'sc_3'].map((id) => ({ policy: policy(id), customer: 'Northwind' }));

function sentFor(channel: string): string[] {
  return calls.filter((call) => call.channel === channel).map((call) => (call.input as { cidrId: string }).cidrId);
}

beforeEach(() => {
  resetFakeApi();
  answer('capacity.list', () => ({ ok: false, error: SERVER }));
});

describe('BulkChangeRun', () => {
  it('sends each change once, keeps each outcome, and retries the failed rows only', async () => {
    let failOnce = true;
    answer('capacity.setAutoRenewal', (input): Result<{ code: number; message: string }> => {
      const { cidrId } = input as { cidrId: string };
      if (cidrId === 'sc_2' && failOnce) {
        failOnce = false;
        return { ok: false, error: SERVER };
      }
      return { ok: true, value: { code: 200, message: `Auto-renewal updated for ${cidrId}` } };
    });
    answer('capacity.describe', () => ({ ok: true, value: capacityDetailOf('sc_x', 'x') }));
    const run = new BulkChangeRun({ kind: 'autoRenewal', enabled: true, frequency: 'ONE_MONTH' }, [...rows, { policy: policy('sc_4', 'EXPIRED'), customer: null }]);
    expect(run.sent.map((item) => item.policy.cidrId)).toEqual(['sc_1', 'sc_2', 'sc_3']);
    expect(run.items.find((item) => item.policy.cidrId === 'sc_4')?.skipped).toMatch(/Not active/);

    await Promise.all([run.confirm(), run.confirm()]);
    await settle();
    expect(sentFor('capacity.setAutoRenewal').sort()).toEqual(['sc_1', 'sc_2', 'sc_3']);
    expect([run.count('done'), run.count('failed')]).toEqual([2, 1]);
    expect(run.outcomeOf('sc_2')).toMatchObject({ status: 'failed', error: SERVER });

    await run.retryFailed();
    expect(sentFor('capacity.setAutoRenewal').sort()).toEqual(['sc_1', 'sc_2', 'sc_2', 'sc_3']);
    expect(run.count('done')).toBe(3);
    await run.retryFailed();
    expect(sentFor('capacity.setAutoRenewal')).toHaveLength(4);
  });

  it('beside each cancel, what keeping means: the savings still to come and how the window ends; their total, unknown when one is', () => {
    const priced = (cidrId: string, savings: number | undefined, autoRenewalEnabled: boolean): CapacityRow =>
      ({ ...policy(cidrId), pricing: { ourPrice: 1000, ...(savings === undefined ? {} : { savings }) }, capacityConfiguration: { ...policy(cidrId).capacityConfiguration!, autoRenewalEnabled, frequency: autoRenewalEnabled ? 'ONE_MONTH' : null } }) as CapacityRow;
    // A third of the 30-day window has run at Dec 11: two thirds of each policy's savings are still to come.
    const now = Date.parse('2026-12-11T00:00:00+00:00');
    const run = new BulkChangeRun({ kind: 'cancel' }, [{ policy: priced('sc_1', 300, false), customer: null }, { policy: priced('sc_2', 600, true), customer: null }], now, SANDBOX_FEE_SCHEDULE);
    expect(run.sent.map((item) => item.ifKept)).toEqual([
      { savingsToCome: 200, endMs: Date.parse('2026-12-31T00:00:00+00:00'), renews: false },
      { savingsToCome: 400, endMs: Date.parse('2026-12-31T00:00:00+00:00'), renews: true },
    ]);
    expect(run.savingsGivenUp).toBe(600);
    const unknown = new BulkChangeRun({ kind: 'cancel' }, [{ policy: priced('sc_1', 300, false), customer: null }, { policy: priced('sc_3', undefined, false), customer: null }], now, SANDBOX_FEE_SCHEDULE);
    expect(unknown.sent[1]!.ifKept).toBeNull();
    expect(unknown.savingsGivenUp).toBeNull();
    // A renewal change has no such comparison.
    expect(new BulkChangeRun({ kind: 'autoRenewal', enabled: false }, [{ policy: priced('sc_1', 300, false), customer: null }], now).sent[0]!.ifKept).toBeNull();
  });

  it('reads an unanswered renewal change back, and never resends an unknown cancel', async () => {
    answer('capacity.setAutoRenewal', () => ({ ok: false, error: TIMEOUT }));
    const shown = capacityDetailOf('sc_1', 'p');
    answer('capacity.describe', () => ({ ok: true, value: { ...shown, configuration: { ...shown.configuration!, autoRenewalEnabled: false, frequency: null } } }));
    const off = new BulkChangeRun({ kind: 'autoRenewal', enabled: false }, rows.slice(0, 1));
    await off.confirm();
    expect(off.outcomeOf('sc_1')).toMatchObject({ status: 'done' });

    answer('capacity.cancel', () => ({ ok: false, error: { kind: 'unsettled', message: 'Checking the outcome first' } }));
    answer('money.state', () => ({ ok: false, error: SERVER }));
    const cancel = new BulkChangeRun({ kind: 'cancel' }, rows.slice(0, 2), Date.parse('2026-11-26T00:00:00Z'), SANDBOX_FEE_SCHEDULE);
    // 5 days before launch: 25 % of 1,000 each.
    expect(cancel.sent.map((item) => item.estimate?.fee)).toEqual([250, 250]);
    expect(cancel.estimatedTotal).toBe(500);
    await cancel.confirm();
    expect(cancel.count('unknown')).toBe(2);
    await cancel.retryFailed();
    expect(sentFor('capacity.cancel')).toHaveLength(2);
  });
});
