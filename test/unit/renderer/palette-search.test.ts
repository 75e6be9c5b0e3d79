import { describe, expect, it } from 'vitest';
import { looksLikePolicyId, matchScore, matchesLabel, rankPolicies } from '../../../renderer/lib/palette-search.js';

const entries = [
  { cidrId: 'sc_1000012', policyName: 'Web tier us-east-1 12', policyStatus: 'ACTIVE' },
  { cidrId: 'sc_1000120', policyName: 'Batch analytics eu-west-1 120', policyStatus: 'EXPIRED' },
  { cidrId: 'sc_1000121', policyName: 'Search cluster us-west-2 121', policyStatus: 'ACTIVE' },
  { cidrId: 'sc_2000300', policyName: 'web-tier', policyStatus: 'ACTIVE', instanceType: 'm5.2xlarge', availabilityZone: 'use1-az4' },
];

describe('palette search', () => {
  it('ranks an exact id first, then id prefixes, then names', () => {
    expect(rankPolicies('sc_1000012', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012']);
    // Equal id prefixes: the active ones first.
    expect(rankPolicies('sc_1000', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012', 'sc_1000121', 'sc_1000120']);
    expect(rankPolicies('sc_100012', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000121', 'sc_1000120']);
    expect(rankPolicies('search', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000121']);
    expect(rankPolicies('west', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000121', 'sc_1000120']);
  });

  it('finds a name by all of its words in any order, case-insensitively, and stops at the limit', () => {
    expect(matchScore('TIER web', entries[0]!)).not.toBeNull();
    expect(matchScore('tier payroll', entries[0]!)).toBeNull();
    expect(rankPolicies('sc_', entries, 2)).toHaveLength(2);
    expect(rankPolicies('   ', entries, 5)).toEqual([]);
  });

  it('forgives typos, case and separators: "web tir" and "Web-tier" find "web-tier"', () => {
    expect(rankPolicies('web tir', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012', 'sc_2000300']);
    expect(rankPolicies('Web-tier', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012', 'sc_2000300']);
    expect(rankPolicies('wbe tier', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012', 'sc_2000300']);
    expect(rankPolicies('analitycs', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000120']);
    // Words under three letters must be exact, and a typo in the first letter is not guessed.
    expect(rankPolicies('wb', entries, 5)).toEqual([]);
    expect(rankPolicies('xeb', entries, 5)).toEqual([]);
    expect(rankPolicies('payroll', entries, 5)).toEqual([]);
  });

  it('finds policies by instance type and zone, and ranks exact matches before typos', () => {
    expect(rankPolicies('m5.2xlarge', entries, 5).map((e) => e.cidrId)).toEqual(['sc_2000300']);
    expect(rankPolicies('use1-az4', entries, 5).map((e) => e.cidrId)).toEqual(['sc_2000300']);
    expect(rankPolicies('web m5', entries, 5).map((e) => e.cidrId)).toEqual(['sc_2000300']);
    expect(matchScore('web tier', entries[0]!)!).toBeLessThan(matchScore('web tir', entries[0]!)!);
  });

  it('ranks active policies before finished ones among equally good matches, never before a better match', () => {
    const same = [
      { cidrId: 'sc_1', policyName: 'payroll db', policyStatus: 'COMPLETED' },
      { cidrId: 'sc_2', policyName: 'payroll db', policyStatus: 'CANCELED' },
      { cidrId: 'sc_3', policyName: 'payroll db', policyStatus: 'READY_FOR_PURCHASE' },
      { cidrId: 'sc_4', policyName: 'payroll db', policyStatus: 'ACTIVE' },
      { cidrId: 'sc_5', policyName: 'payroll db', policyStatus: 'SOMETHING_NEW' },
    ];
    expect(rankPolicies('payroll', same, 5).map((e) => e.policyStatus)).toEqual(['ACTIVE', 'READY_FOR_PURCHASE', 'CANCELED', 'COMPLETED', 'SOMETHING_NEW']);
    // The limit keeps the active ones.
    expect(rankPolicies('payroll', same, 1).map((e) => e.cidrId)).toEqual(['sc_4']);
    // An exact id still comes first, whatever its status.
    expect(rankPolicies('sc_1', same, 2).map((e) => e.cidrId)).toEqual(['sc_1']);
  });

  it('keeps the best matches of a long list in order, however it is given', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ cidrId: `sc_${i}`, policyName: `web tier ${i}`, policyStatus: 'ACTIVE' }));
    expect(rankPolicies('web tir', many.slice().reverse(), 3).map((e) => e.cidrId)).toEqual(['sc_0', 'sc_1', 'sc_2']);
    expect(rankPolicies('sc_9', many, 3).map((e) => e.cidrId)).toEqual(['sc_9', 'sc_90', 'sc_91']);
  });

  it('knows a whole policy id and matches view labels', () => {
    expect(looksLikePolicyId(' sc_123 ')).toBe(true);
    expect(looksLikePolicyId('sc_12a')).toBe(false);
    expect(matchesLabel('purch', 'Search & purchase')).toBe(true);
    expect(matchesLabel('', 'Overview')).toBe(true);
    expect(matchesLabel('xyz', 'Overview')).toBe(false);
  });
});
