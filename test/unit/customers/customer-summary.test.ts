import { expect, it } from 'vitest';
import { summarizeCustomer } from '../../../electron/services/customers/customer-summary.js';
import type { CapacityRow } from '../../../shared/api/readers.js';
import type { ActivityEntry } from '../../../shared/own-data/activity.js';

const asOf = new Date('2026-06-15T09:00:00.000Z');
const policy = (cidrId: string, policyStatus: string, launchDateTime: string | undefined, endDateTime: string | undefined, more: Partial<CapacityRow> = {}) =>
  ({ cidrId, policyStatus, capacityConfiguration: { launchDateTime, endDateTime, autoRenewalEnabled: false }, ...more }) as CapacityRow;

it('sums a customer’s figures over each window, and orders launches and ends by the instant, not by the text', () => {
  const figures = summarizeCustomer(
    [
      // 12:00 UTC, written with an offset: as text it sorts after sc_c's 13:00 UTC.
      policy('sc_a', 'READY_FOR_PURCHASE', '2026-06-20T17:30:00+05:30', '2026-07-20T00:00:00.000Z'),
      policy('sc_b', 'ACTIVE', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', {
        capacityConfiguration: { launchDateTime: '2026-06-01T00:00:00.000Z', endDateTime: '2026-07-01T00:00:00.000Z', autoRenewalEnabled: true },
        pricing: { ourPrice: 300, savings: 30, creditCardProcessingFee: 2 },
      }),
      policy('sc_c', 'READY_FOR_PURCHASE', '2026-06-20T13:00:00.000Z', undefined),
      policy('sc_d', 'EXPIRED', '2026-01-01T00:00:00.000Z', '2026-01-31T00:00:00.000Z', { pricing: { savings: 60, bankAccountProcessingFee: 1 } }),
      policy('sc_e', 'ACTIVE', 'not a date', '', { pricing: { ourPrice: 7, savings: 5 } }),
    ],
    [],
    asOf,
  );
  expect(figures.totals).toEqual({
    activeCapacity: 2,
    launchingLater: 0,
    // sc_b's month of its 30-day window, and sc_e's price as it stands (no window known: taken as running).
    monthlySpend: 307,
    monthlySpendLaunching: 0,
    // sc_b: 14.375 of its 30 days delivered; sc_d ran in January; sc_e's savings have no window.
    savingsThisMonth: 14.38,
    savingsYearToDate: 74.38,
    // sc_b by card 2 (bank not stated: 2 either way); sc_d only by bank, 1 either way.
    processingFeesByCard: 3,
    processingFeesByBank: 3,
    cancellationFees: 0,
    canceledUncounted: 0,
  });
  expect(figures.horizons).toEqual([
    { days: 30, launches: 2, ends: 0, renews: 1 },
    { days: 60, launches: 2, ends: 1, renews: 1 },
    { days: 90, launches: 2, ends: 1, renews: 1 },
  ]);
  expect(figures.milestones.map(({ cidrId, kind }) => `${cidrId} ${kind}`)).toEqual(['sc_a launch', 'sc_c launch', 'sc_b end', 'sc_a end']);
});

it('counts what a canceled policy saved until this app canceled it, and says how many canceled elsewhere are left out', () => {
  const window = { launchDateTime: '2026-05-01T00:00:00.000Z', endDateTime: '2026-07-30T00:00:00.000Z', autoRenewalEnabled: false };
  const canceled = (cidrId: string) => policy(cidrId, 'CANCELED', undefined, undefined, { capacityConfiguration: window, pricing: { ourPrice: 900, savings: 90 } });
  const cancel = (cidrId: string, outcome: ActivityEntry['outcome'], at: string, fee: number | null = null): ActivityEntry => ({
    policyKind: 'capacity', cidrId, action: 'cancel', outcome, at, username: 'alex', profileId: 'sandbox', reason: null, fee, price: null, autoRenewal: null, configured: [], eventId: null,
  });
  const figures = summarizeCustomer(
    [canceled('sc_here'), canceled('sc_refused'), canceled('sc_elsewhere'), policy('sc_never_ran', 'CANCELED', '2026-08-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z', { pricing: { savings: 50 } })],
    [
      // Canceled here on 11 June (a second, later cancel entry does not move it); sc_refused's cancel was not done.
      cancel('sc_here', 'succeeded', '2026-06-11T00:00:00.000Z', 10),
      cancel('sc_here', 'settled-done', '2026-06-12T00:00:00.000Z'),
      cancel('sc_refused', 'not-done', '2026-06-10T00:00:00.000Z'),
    ],
    asOf,
  );
  // sc_here ran 41 of its 90 days this year (1 May to 11 June), 10 of them this month: 1 a day.
  expect(figures.totals.savingsYearToDate).toBe(41);
  expect(figures.totals.savingsThisMonth).toBe(10);
  // sc_refused and sc_elsewhere may have run (when they were canceled is not known); sc_never_ran had not launched.
  expect(figures.totals.canceledUncounted).toBe(2);
  expect(figures.totals.cancellationFees).toBe(10);
});

it('counts what a canceled policy saved until the cancel was sent, not until a later read-back settled its unknown outcome (review13)', () => {
  // An unanswered cancel is written 'unknown' as the answer fails to come, and 'settled-done' when a read-back (at the
  // next launch, say: days later) finds it done. The service canceled it when it was sent: the savings end there.
  const window = { launchDateTime: '2026-05-01T00:00:00.000Z', endDateTime: '2026-07-30T00:00:00.000Z', autoRenewalEnabled: false };
  const canceled = policy('sc_unanswered', 'CANCELED', undefined, undefined, { capacityConfiguration: window, pricing: { ourPrice: 900, savings: 90 } });
  const cancel = (outcome: ActivityEntry['outcome'], at: string): ActivityEntry => ({
    policyKind: 'capacity', cidrId: 'sc_unanswered', action: 'cancel', outcome, at, username: 'alex', profileId: 'sandbox', reason: null, fee: null, price: null, autoRenewal: null, configured: [], eventId: null,
  });
  const figures = summarizeCustomer([canceled], [cancel('unknown', '2026-06-01T00:00:00.000Z'), cancel('settled-done', '2026-06-11T00:00:00.000Z')], asOf);
  // 1 May to 1 June: 31 days at 1 a day; none of them this month.
  expect(figures.totals.savingsYearToDate).toBe(31);
  expect(figures.totals.savingsThisMonth).toBe(0);
});

it('leaves out of the monthly spend an active policy that launches later, and says what it will add (money14)', () => {
  const month = { launchDateTime: '2026-06-01T00:00:00.000Z', endDateTime: '2026-07-01T00:00:00.000Z', autoRenewalEnabled: false };
  const later = { launchDateTime: '2026-06-20T00:00:00.000Z', endDateTime: '2026-08-19T00:00:00.000Z', autoRenewalEnabled: false };
  const figures = summarizeCustomer(
    [
      policy('sc_running', 'ACTIVE', undefined, undefined, { capacityConfiguration: month, pricing: { ourPrice: 300, savings: 30 } }),
      // Bought, launches on the 20th: 600 over 60 days, 300 a month once it runs.
      policy('sc_later', 'ACTIVE', undefined, undefined, { capacityConfiguration: later, pricing: { ourPrice: 600, savings: 60 } }),
    ],
    [],
    asOf,
  );
  expect(figures.totals).toMatchObject({ activeCapacity: 2, launchingLater: 1, monthlySpend: 300, monthlySpendLaunching: 300 });
  // It has saved nothing yet either: only sc_running's 14.375 of its 30 days.
  expect(figures.totals.savingsThisMonth).toBe(14.38);
});

it('sums the processing fees by card and by bank transfer apart: the service states both, not which one the customer pays (money14)', () => {
  const figures = summarizeCustomer(
    [
      policy('sc_both', 'ACTIVE', undefined, undefined, { pricing: { creditCardProcessingFee: 12.5, bankAccountProcessingFee: 1 } }),
      policy('sc_bank', 'EXPIRED', undefined, undefined, { pricing: { bankAccountProcessingFee: 3.25 } }),
      policy('sc_card', 'CANCELED', undefined, undefined, { pricing: { creditCardProcessingFee: 2 } }),
      // Not bought: no fee was charged.
      policy('sc_ready', 'READY_FOR_PURCHASE', undefined, undefined, { pricing: { creditCardProcessingFee: 100, bankAccountProcessingFee: 100 } }),
    ],
    [],
    asOf,
  );
  // Before money14 one sum took the card fee else the bank fee: 17.75, a bank payer's 6.25 nowhere.
  expect(figures.totals).toMatchObject({ processingFeesByCard: 17.75, processingFeesByBank: 6.25 });
});
