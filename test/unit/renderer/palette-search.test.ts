import { describe, expect, it } from 'vitest';
import { looksLikePolicyId, matchScore, matchesLabel, rankPolicies } from '../../../renderer/lib/palette-search.js';

const entries = [
  { cidrId: 'sc_1000012', policyName: 'Web tier us-east-1 12', policyStatus: 'ACTIVE' },
  { cidrId: 'sc_1000120', policyName: 'Batch analytics eu-west-1 120', policyStatus: 'EXPIRED' },
  { cidrId: 'sc_1000121', policyName: 'Search cluster us-west-2 121', policyStatus: 'ACTIVE' },
];

describe('palette search', () => {
  it('ranks an exact id first, then id prefixes, then names', () => {
    expect(rankPolicies('sc_1000012', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012']);
    expect(rankPolicies('sc_1000', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000012', 'sc_1000120', 'sc_1000121']);
    expect(rankPolicies('sc_100012', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000120', 'sc_1000121']);
    expect(rankPolicies('search', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000121']);
    expect(rankPolicies('west', entries, 5).map((e) => e.cidrId)).toEqual(['sc_1000120', 'sc_1000121']);
  });

  it('finds a name by all of its words in any order, case-insensitively, and stops at the limit', () => {
    expect(matchScore('TIER web', entries[0]!)).not.toBeNull();
    expect(matchScore('tier payroll', entries[0]!)).toBeNull();
    expect(rankPolicies('sc_', entries, 2)).toHaveLength(2);
    expect(rankPolicies('   ', entries, 5)).toEqual([]);
  });

  it('knows a whole policy id and matches view labels', () => {
    expect(looksLikePolicyId(' sc_123 ')).toBe(true);
    expect(looksLikePolicyId('sc_12a')).toBe(false);
    expect(matchesLabel('purch', 'Search & purchase')).toBe(true);
    expect(matchesLabel('', 'Overview')).toBe(true);
    expect(matchesLabel('xyz', 'Overview')).toBe(false);
  });
});
