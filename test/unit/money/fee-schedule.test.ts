import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../shared/format/money.js';
import { SANDBOX_FEE_SCHEDULE, estimateFee, freeUntil, scheduleLines, type KnownFeeSchedule } from '../../../shared/money/fee-schedule.js';

const DAY = 86_400_000;
const launch = Date.UTC(2027, 0, 31);
const end = launch + 10 * DAY;
const policy = { ourPrice: 48_820.84, launchMs: launch, endMs: end };

describe('the fee estimate', () => {
  it('names the rule that produced it (the issue’s example: 25 % five days before launch)', () => {
    expect(estimateFee(SANDBOX_FEE_SCHEDULE, policy, launch - 5 * DAY)).toEqual({
      fee: 12_205.21,
      percent: 25,
      share: 1,
      rule: '25 %: launches in under 7 days',
    });
    expect(estimateFee(SANDBOX_FEE_SCHEDULE, policy, launch - 10 * DAY)?.rule).toBe('10 %: launches in 7 to under 30 days');
    expect(estimateFee(SANDBOX_FEE_SCHEDULE, policy, launch - 30 * DAY)).toMatchObject({ fee: 0, rule: '0 %: launches in 30 days or more' });
    expect(estimateFee(SANDBOX_FEE_SCHEDULE, policy, launch + 9 * DAY)).toMatchObject({
      fee: 2441.04,
      share: 0.1,
      rule: '50 % of the price times the share of the window still to run (10 %): launched already',
    });
  });

  it('is null while the schedule is unknown', () => {
    expect(estimateFee({ kind: 'unknown' }, policy, launch)).toBeNull();
    expect(scheduleLines({ kind: 'unknown' })).toEqual([]);
  });

  it('follows a schedule the person entered, including a flat after-launch rule', () => {
    const own: KnownFeeSchedule = {
      kind: 'known',
      beforeLaunch: [
        { daysBeforeLaunch: 60, percent: 2.5 },
        { daysBeforeLaunch: 0, percent: 40 },
      ],
      afterLaunch: { percent: 100, ofRemainingWindow: false },
    };
    expect(estimateFee(own, { ...policy, ourPrice: 1000 }, launch - 90 * DAY)).toMatchObject({ fee: 25, rule: '2.5 %: launches in 60 days or more' });
    expect(estimateFee(own, { ...policy, ourPrice: 1000 }, launch - DAY)).toMatchObject({ fee: 400, rule: '40 %: launches in under 60 days' });
    expect(estimateFee(own, { ...policy, ourPrice: 1000 }, end - DAY)).toMatchObject({ fee: 1000, rule: '100 %: launched already' });
    // No 0 % step: there is no free date.
    expect(freeUntil(own, launch, launch - 90 * DAY)).toBeNull();
  });

  it('knows until when canceling is free', () => {
    expect(freeUntil(SANDBOX_FEE_SCHEDULE, launch, launch - 40 * DAY)).toBe(launch - 30 * DAY);
    expect(freeUntil(SANDBOX_FEE_SCHEDULE, launch, launch - 20 * DAY)).toBeNull();
  });

  it('reads as lines a customer can follow', () => {
    expect(scheduleLines(SANDBOX_FEE_SCHEDULE)).toEqual([
      '0 %: launches in 30 days or more',
      '10 %: launches in 7 to under 30 days',
      '25 %: launches in under 7 days',
      '50 % of the price times the share of the window still to run: launched already',
    ]);
  });
});

describe('formatMoney', () => {
  it('shows the currency code with every amount, and the plain amount while none is set', () => {
    expect(formatMoney(12_205.21, 'USD', 'en-US')).toBe('USD\u00a012,205.21');
    expect(formatMoney(12_205.21, 'EUR', 'de-DE')).toBe('12.205,21\u00a0EUR');
    expect(formatMoney(12_205.21, null, 'en-US')).toBe('12,205.21');
    expect(formatMoney(null, 'USD', 'en-US')).toBe('—');
    expect(formatMoney(Number.NaN, 'USD', 'en-US')).toBe('—');
  });
});
