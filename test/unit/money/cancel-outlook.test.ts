import { describe, expect, it } from 'vitest';
import { cancelOutlook } from '../../../shared/money/cancel-outlook.js';
import { SANDBOX_FEE_SCHEDULE } from '../../../shared/money/fee-schedule.js';
import { confirmsBulkCancel, confirmsCancel } from '../../../shared/money/typed-confirmation.js';

const DAY = 86_400_000;
const launch = Date.UTC(2027, 0, 31);
const policy = { ourPrice: 48_820.84, savings: 10_000, launchMs: launch, endMs: launch + 10 * DAY };

describe('the cancel outlook', () => {
  it('before launch: the whole saving is still to come, the fee by the schedule', () => {
    const outlook = cancelOutlook(policy, SANDBOX_FEE_SCHEDULE, launch - 5 * DAY);
    expect(outlook).toMatchObject({ shareToRun: 1, savingsToCome: 10_000, savingsDelivered: 0, freeUntilMs: null, feeExceedsSavingsToCome: true });
    expect(outlook.estimate?.fee).toBe(12_205.21);
  });

  it('far ahead: free until 30 days before launch', () => {
    const outlook = cancelOutlook(policy, SANDBOX_FEE_SCHEDULE, launch - 40 * DAY);
    expect(outlook.freeUntilMs).toBe(launch - 30 * DAY);
    expect(outlook.estimate?.fee).toBe(0);
    expect(outlook.feeExceedsSavingsToCome).toBe(false);
    expect(outlook.nextStep?.afterMs).toBe(launch - 30 * DAY);
    expect(outlook.nextStep?.estimate).toMatchObject({ percent: 10, fee: 4882.08 });
  });

  it('under a week before launch the next step is the after-launch rule', () => {
    const outlook = cancelOutlook(policy, SANDBOX_FEE_SCHEDULE, launch - 5 * DAY);
    expect(outlook.nextStep?.afterMs).toBe(launch);
    expect(outlook.nextStep?.estimate.percent).toBe(50);
    expect(cancelOutlook(policy, SANDBOX_FEE_SCHEDULE, launch + DAY).nextStep).toBeNull();
  });

  it('mid-window: savings split between delivered and to come; unknown schedule estimates nothing', () => {
    const outlook = cancelOutlook(policy, { kind: 'unknown' }, launch + 7 * DAY);
    expect(outlook).toMatchObject({ estimate: null, savingsToCome: 3000, savingsDelivered: 7000, feeExceedsSavingsToCome: null });
  });
});

describe('the typed confirmation of a cancel', () => {
  it('takes the policy id in any case, or the fee as people type it', () => {
    for (const typed of ['sc_1001', ' SC_1001 ', '12205.21', '12,205.21', 'USD 12,205.21', '12.205,21', '12205,21', 'USD\u00a012,205.21'])
      expect(confirmsCancel(typed, 'sc_1001', 12_205.21), typed).toBe(true);
  });

  it('refuses anything else, and an amount when no fee is known', () => {
    for (const typed of ['', 'sc_100', '12205', '12,205.2', '1220521', 'yes', '__proto__'])
      expect(confirmsCancel(typed, 'sc_1001', 12_205.21), typed).toBe(false);
    expect(confirmsCancel('0', 'sc_1001', null)).toBe(false);
    expect(confirmsCancel('sc_1001', 'sc_1001', null)).toBe(true);
  });
});

describe('the typed confirmation of a bulk cancel', () => {
  it('takes the number of policies, or the total fee as people type it', () => {
    for (const typed of ['3', ' 3 ', '36,410.63', 'USD 36410.63', '36.410,63'])
      expect(confirmsBulkCancel(typed, 3, 36_410.63), typed).toBe(true);
  });

  it('refuses another count, another amount, and an amount when a fee could not be estimated', () => {
    for (const typed of ['', '2', '4', '03x', '36410', '36,410.6', 'yes', '__proto__', 'constructor'])
      expect(confirmsBulkCancel(typed, 3, 36_410.63), typed).toBe(false);
    expect(confirmsBulkCancel('36410.63', 3, null)).toBe(false);
    expect(confirmsBulkCancel('3', 3, null)).toBe(true);
  });
});
