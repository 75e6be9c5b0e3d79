import { describe, expect, it } from 'vitest';
import { renewedUntil } from '../../../renderer/lib/next-renewal.js';
import { estimateCancellationFee } from '../../../renderer/lib/cancel-fee-estimate.js';
import { cancellationFee } from '../../../sandbox/state/fees.js';
import { SANDBOX_FEE_SCHEDULE } from '../../../shared/money/fee-schedule.js';

describe('renewedUntil', () => {
  it('adds one period: a week, two weeks, a calendar month (clamped by the calendar)', () => {
    const end = '2026-12-30T10:00:00+00:00';
    expect(renewedUntil(end, 'ONE_WEEK')?.toISOString()).toBe('2027-01-06T10:00:00.000Z');
    expect(renewedUntil(end, 'TWO_WEEKS')?.toISOString()).toBe('2027-01-13T10:00:00.000Z');
    expect(renewedUntil(end, 'ONE_MONTH')?.toISOString()).toBe('2027-01-30T10:00:00.000Z');
    expect(renewedUntil('not a date', 'ONE_MONTH')).toBeNull();
  });
});

describe('estimateCancellationFee (a list row under the environment schedule)', () => {
  it('matches what the sandbox charges at every step of its schedule', () => {
    const now = Date.UTC(2026, 10, 26);
    const day = 86_400_000;
    for (const launchInDays of [45, 30, 29, 7, 6, 1, 0, -5, -29]) {
      const launch = now + launchInDays * day;
      const end = launch + 30 * day;
      const estimate = estimateCancellationFee(
        { ourPrice: 1234.56, launchDateTime: new Date(launch).toISOString(), endDateTime: new Date(end).toISOString() },
        SANDBOX_FEE_SCHEDULE,
        now,
      );
      expect(estimate?.fee, `launch in ${launchInDays} days`).toBe(cancellationFee(1234.56, launch, end, now));
    }
    expect(estimateCancellationFee({ ourPrice: undefined, launchDateTime: undefined, endDateTime: undefined }, SANDBOX_FEE_SCHEDULE, now)).toBeNull();
    // An environment whose schedule nobody entered estimates nothing rather than the sandbox's rule.
    expect(
      estimateCancellationFee({ ourPrice: 100, launchDateTime: new Date(now + day).toISOString(), endDateTime: new Date(now + 9 * day).toISOString() }, { kind: 'unknown' }, now),
    ).toBeNull();
  });
});
