import { describe, expect, it } from 'vitest';
import { ActivityEntry } from '../../../shared/own-data/activity.js';
import { formatAmount } from '../../../shared/format/money.js';
import { actionWords, byWhom, factWords, outcomeWords } from '../../../renderer/lib/activity-text.js';

const base = ActivityEntry.parse({
  policyKind: 'capacity',
  cidrId: 'sc_1',
  action: 'cancel',
  outcome: 'succeeded',
  at: '2026-11-23T02:54:00.000Z',
  username: 'alex.morgan@example.com',
  profileId: 'sandbox',
  reason: null,
  fee: 2603.51,
  price: null,
  autoRenewal: null,
  configured: [],
  eventId: null,
});

describe('activity entries in words', () => {
  it('a cancellation names its fee, or says the service stated none', () => {
    expect([actionWords(base), outcomeWords(base), factWords(base)]).toEqual(['Cancellation', 'Done', [`Cancellation fee ${formatAmount(2603.51)}`]]);
    expect(factWords({ ...base, fee: null })).toEqual(['The service stated no cancellation fee']);
    // A refused cancellation cost nothing and says why, in words rather than a code.
    const refused = { ...base, outcome: 'not-done' as const, fee: null, reason: { kind: 'rejected' as const, message: 'cannot be canceled in status CANCELED' } };
    expect(outcomeWords(refused)).toBe('Not done: the service refused it');
    expect(factWords(refused)).toEqual([]);
  });

  it('renewal, configuration, purchase and termination say what was set', () => {
    expect(actionWords({ ...base, action: 'autoRenewal', fee: null, autoRenewal: { enabled: false, frequency: null } })).toBe('Auto-renewal switched off');
    const failedRenewal = { ...base, action: 'autoRenewal' as const, outcome: 'not-done' as const, fee: null, autoRenewal: { enabled: true, frequency: 'ONE_WEEK' } };
    expect(actionWords(failedRenewal)).toBe('Auto-renewal change (to on)');
    expect(factWords({ ...base, action: 'autoRenewal', fee: null, autoRenewal: { enabled: true, frequency: 'ONE_MONTH' } })).toEqual(['Every month']);
    expect(factWords({ ...base, action: 'configure', fee: null, configured: [{ field: 'ebsVolumeSize', value: '200' }] })).toEqual(['EBS volume (GB): 200']);
    expect(factWords({ ...base, action: 'purchase', fee: null, price: 9405.85 })).toEqual([`Price ${formatAmount(9405.85)}`]);
    expect(factWords({ ...base, policyKind: 'cyber', action: 'terminate', fee: null, eventId: 42 })).toEqual(['Termination event 42']);
  });

  it('an unknown outcome and its settlement read plainly; who and where', () => {
    expect(outcomeWords({ ...base, outcome: 'unknown' })).toContain('Outcome unknown');
    expect(outcomeWords({ ...base, outcome: 'settled-not-done' })).toBe('Confirmed not done by reading the policy back');
    expect(byWhom(base, 'Sandbox (built in)')).toBe('by alex.morgan@example.com in Sandbox (built in)');
    expect(byWhom(base)).toBe('by alex.morgan@example.com in sandbox');
  });
});
