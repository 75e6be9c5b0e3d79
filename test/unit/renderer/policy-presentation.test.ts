import { describe, expect, it } from 'vitest';
import { CAPACITY_STATUSES, CYBER_STATUSES, OFFERING_STATUSES } from '../../../shared/api/contract-choices.js';
import { formatAmount, formatFraction, formatOptionalAmount } from '../../../shared/format/money.js';
import { presentStatus } from '../../../renderer/components/ui/status.js';
import { autoRenewalShort, autoRenewalSummary, frequencyLabel, instanceSummary } from '../../../renderer/lib/capacity-format.js';
import { durationDays } from '../../../renderer/lib/dates.js';
import { allowedActions, hasAnyAction } from '../../../renderer/lib/policy-actions.js';

describe('allowed actions', () => {
  it('purchase only when ready; configure, auto-renewal and cancel only when active; nothing otherwise', () => {
    expect(allowedActions('READY_FOR_PURCHASE')).toEqual({ purchase: true, configure: false, autoRenewal: false, cancel: false });
    expect(allowedActions('ACTIVE')).toEqual({ purchase: false, configure: true, autoRenewal: true, cancel: true });
    for (const status of ['EXPIRED', 'CANCELED', 'FAILED', 'COMPLETED', 'SOMETHING_NEW', '']) {
      expect(hasAnyAction(allowedActions(status)), status).toBe(false);
    }
  });
});

describe('status badges', () => {
  it('give every status of the contract a label and a tone', () => {
    for (const status of [...CAPACITY_STATUSES, ...CYBER_STATUSES, ...OFFERING_STATUSES, 'QUEUED_FOR_START']) {
      const look = presentStatus(status);
      expect(look.known, status).toBe(true);
      expect(look.label).not.toBe(status);
    }
  });

  it('show any other value exactly as it came, even one named like an object property', () => {
    expect(presentStatus('WAITLISTED')).toEqual({ label: 'WAITLISTED', tone: 'neutral', known: false });
    expect(presentStatus('constructor')).toEqual({ label: 'constructor', tone: 'neutral', known: false });
  });
});

describe('formatting', () => {
  it('shows amounts with two decimals and savings fractions as percentages', () => {
    expect(formatAmount(1234.5, 'en-US')).toBe('1,234.50');
    expect(formatAmount(0, 'en-US')).toBe('0.00');
    expect(formatAmount(Number.NaN, 'en-US')).toBe('—');
    expect(formatOptionalAmount(null, 'en-US')).toBe('—');
    expect(formatFraction(0.2218, 'en-US')).toBe('22.2%');
  });

  it('says auto-renewal and instances in words', () => {
    expect(autoRenewalShort(false, 'ONE_WEEK')).toBe('Off');
    expect(autoRenewalShort(true, 'TWO_WEEKS')).toBe('Every 2 weeks');
    expect(autoRenewalShort(true, 'FORTNIGHTLY')).toBe('FORTNIGHTLY');
    expect(autoRenewalSummary(true, 'ONE_MONTH')).toBe('On · Every month');
    expect(frequencyLabel(null)).toBe('No frequency set');
    expect(instanceSummary({ instanceType: 'm5.large', qty: 4 })).toBe('m5.large × 4');
    expect(durationDays('2027-01-01T00:00:00+00:00', '2027-01-31T00:00:00+00:00')).toBe(30);
    expect(durationDays('not a date', '2027-01-31T00:00:00+00:00')).toBeNull();
  });
});
