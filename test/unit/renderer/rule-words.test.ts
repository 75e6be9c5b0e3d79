import { describe, expect, it } from 'vitest';
import { RULE, RULE_FOR_PEOPLE, ruleForPeople } from '../../../shared/api/contract-choices.js';
import { sentence } from '../../../renderer/lib/configure-form.js';
import { checkSearch } from '../../../renderer/lib/search-form.js';
import { fieldError } from '../../../renderer/lib/configure-form.js';
import { NEW_POLICY_CONFIGURATION } from '../../support/capacity-configuration.js';
import { configValuesOf } from '../../../renderer/lib/configure-form.js';

/** Names of the wire's parameters, which a person filling a form never sees. */
const PARAMETER_NAMES = /\b(startDate|endDate|clientUtcOffset|autoRenewalEnabled|securityGroup|sshPairKey|ebsVolumeSize|amiImage|cidrId)\b/;

describe('rule messages for people', () => {
  it('words every contract rule without patterns, parameter names or codes', () => {
    for (const key of Object.keys(RULE) as (keyof typeof RULE)[]) {
      const words = RULE_FOR_PEOPLE[key];
      expect(words, key).not.toMatch(/[\^$\\[\]{}*]/);
      expect(words, key).not.toMatch(PARAMETER_NAMES);
      expect(words, key).not.toMatch(/\b[A-Z]+_[A-Z_]+\b/);
      expect(ruleForPeople(RULE[key]), key).toBe(words);
    }
  });

  it('shows the security group rule as an example, not a regular expression', () => {
    expect(sentence(RULE.securityGroup)).toBe(RULE_FOR_PEOPLE.securityGroup);
    expect(sentence(RULE.securityGroup)).toMatch(/^A security group id looks like sg-0a1b2c3d/);
    const values = { ...configValuesOf(NEW_POLICY_CONFIGURATION), securityGroup: 'sg-123' };
    expect(sentence(fieldError(values, 'securityGroup') ?? '')).toBe(RULE_FOR_PEOPLE.securityGroup);
  });

  it('says an end before the start in words, without naming startDate', () => {
    const checked = checkSearch({
      instanceType: 'm5.large',
      platform: 'Linux/UNIX',
      availabilityZone: 'use1-az1',
      startIso: '2026-12-10',
      endIso: '2026-12-01',
      utcOffset: 0,
    });
    expect(checked.ok).toBe(false);
    const error = checked.ok ? '' : (checked.errors.endDate ?? '');
    expect(sentence(error)).toBe('The end date cannot be before the start date');
  });

  it('keeps unknown texts, as a sentence', () => {
    expect(ruleForPeople('is odd')).toBeNull();
    expect(sentence('is odd')).toBe('Is odd');
  });
});
