/**
 * A quote's per-policy notes (`timing`): the validity's last day ends at midnight where the customer reads it, and
 * fee notes come from the agreement's schedule only when it is known (a closing note of the eighth session: neither
 * an unknown schedule nor an offset that moves the last day across UTC midnight was tested).
 */
import { describe, expect, it } from 'vitest';
import type { CapacityView } from '../../../shared/api/capacity.js';
import { SANDBOX_TERMS, UNKNOWN_TERMS, type AgreementTerms } from '../../../shared/money/agreement-terms.js';
import { atOffset, buildQuote, type QuoteRequest } from '../../../shared/quote/quote.js';
import { syntheticPolicies } from '../../support/synthetic-policies.js';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-12-01T12:00:00Z');

function viewLaunching(launch: string, ourPrice = 1000): CapacityView {
  const policy = syntheticPolicies(1)[0]!;
  const endMs = Date.parse(launch) + 30 * DAY_MS;
  return {
    policyDetails: {
      cidrId: policy.cidrId,
      policyName: policy.policyName,
      policyStatus: 'READY_FOR_PURCHASE',
      policyOperatingState: policy.policyOperatingState,
      cspAccountName: policy.cspAccountName,
    },
    regionSettings: policy.cspRegion,
    instances: [policy.policyInstance],
    dates: { createdDate: policy.createdDate, launchDateTime: launch, endDateTime: new Date(endMs).toISOString() },
    configuration: { ...policy.capacityConfiguration, launchDateTime: launch, endDateTime: new Date(endMs).toISOString() },
    disasterRecoveryEvents: [],
    pricing: { ...policy.pricing, ourPrice },
  };
}

function notes(launch: string, validUntil: string, customerUtcOffset: number, terms: AgreementTerms = SANDBOX_TERMS): readonly string[] {
  const request: QuoteRequest = {
    policyIds: ['sc_100000'],
    customer: { name: 'Northwind' },
    accountManager: 'Alex',
    validUntil,
    customerUtcOffset,
    paper: 'A4',
  };
  return buildQuote(request, [viewLaunching(launch)], terms, NOW).lines[0]!.timing;
}

const launchesBefore = (launch: string, offset: number) => `Launches ${atOffset(launch, offset)}, before this quote's validity ends: it can be bought only until then.`;

describe('the validity’s last day, at the customer’s offset', () => {
  it('east of UTC it ends before UTC midnight: a launch after it, still on the same UTC day, gets no note', () => {
    // Valid until the 10th at +10: the last day ends at 2026-12-10T14:00Z.
    expect(notes('2026-12-10T13:59:00Z', '2026-12-10', 10, UNKNOWN_TERMS)).toEqual([launchesBefore('2026-12-10T13:59:00Z', 10)]);
    expect(notes('2026-12-10T14:01:00Z', '2026-12-10', 10, UNKNOWN_TERMS)).toEqual([]);
  });

  it('west of UTC it ends on the next UTC day: a launch on the 11th in UTC is still inside the customer’s 10th', () => {
    // Valid until the 10th at -8: the last day ends at 2026-12-11T08:00Z.
    expect(notes('2026-12-11T07:30:00Z', '2026-12-10', -8, UNKNOWN_TERMS)).toEqual([launchesBefore('2026-12-11T07:30:00Z', -8)]);
    expect(atOffset('2026-12-11T07:30:00Z', -8)).toMatch(/^2026-12-10 23:30 /);
    expect(notes('2026-12-11T08:30:00Z', '2026-12-10', -8, UNKNOWN_TERMS)).toEqual([]);
  });

  it('a half-hour offset moves the end by its half hour', () => {
    // +5.5: the 10th ends at 2026-12-10T18:30Z.
    expect(notes('2026-12-10T18:29:00Z', '2026-12-10', 5.5, UNKNOWN_TERMS)).toHaveLength(1);
    expect(notes('2026-12-10T18:31:00Z', '2026-12-10', 5.5, UNKNOWN_TERMS)).toEqual([]);
  });
});

describe('fee notes follow the agreement’s schedule', () => {
  it('under an unknown schedule only the launch note can appear, never a fee or a free-until date', () => {
    const soon = '2026-12-05T00:00:00Z';
    const later = '2027-03-01T00:00:00Z';
    expect(notes(soon, '2026-12-10', 0, UNKNOWN_TERMS)).toEqual([launchesBefore(soon, 0)]);
    expect(notes(later, '2026-12-10', 0, UNKNOWN_TERMS)).toEqual([]);
    expect(notes(later, '2027-02-25', 0, UNKNOWN_TERMS).join(' ')).not.toMatch(/fee|free/i);
  });

  it('under a known schedule: a fee from the start inside a paid band, and the free-until instant at the customer’s offset', () => {
    // Launch in 5 days: the sandbox's 25 % band already (under 7 days): 250.00 of 1,000.00.
    const soon = '2026-12-06T12:00:00Z';
    const inBand = notes(soon, '2026-12-03', 0);
    expect(inBand).toHaveLength(1);
    expect(inBand[0]).toMatch(/^Once bought, canceling it costs a fee from the start: USD\s250\.00 now \(25\s%/);

    // Launch in 35 days, quote valid past the 30-day mark: free until 30 days before launch, said at the customer's offset.
    const later = '2027-01-05T02:00:00Z';
    const freeUntilMs = Date.parse(later) - 30 * DAY_MS;
    const crossing = notes(later, '2026-12-20', -5);
    expect(crossing).toHaveLength(1);
    // The free-until instant, 2026-12-06T02:00Z, is the 5th at the customer's -5: the date they read.
    expect(atOffset(new Date(freeUntilMs).toISOString(), -5)).toBe('2026-12-05 21:00 UTC-05:00');
    expect(crossing[0]).toMatch(/^Canceling it once bought is free until 2026-12-05 21:00 UTC-05:00; after that it costs a fee \(10\s%[^)]*: USD\s100\.00\)\.$/);
  });
});
