import { describe, expect, it } from 'vitest';
import { ConfigureRequest } from '../../../shared/api/capacity.js';
import { RULE } from '../../../shared/api/contract-choices.js';
import {
  changedFields,
  configErrors,
  configWarnings,
  configFieldOf,
  configValuesOf,
  configureBody,
  type ConfigValues,
  currentValuesOf,
  fieldError,
  parseEbsText,
  ruleText,
  sentence,
} from '../../../renderer/lib/configure-form.js';
import { NEW_POLICY_CONFIGURATION } from '../../support/capacity-configuration.js';

const current = NEW_POLICY_CONFIGURATION;

describe('configure form', () => {
  it('starts from the current configuration, reading the plural securityGroups into the singular field', () => {
    const configured = { ...current, vpc: 'vpc-0a1b2c3d', securityGroups: 'sg-0123abcd', amiImage: 'ami-0abc1234', sshPairKey: 'ops' };
    expect(configValuesOf(configured)).toEqual({ vpc: 'vpc-0a1b2c3d', securityGroup: 'sg-0123abcd', amiImage: 'ami-0abc1234', sshPairKey: 'ops', ebsVolumeSize: 10 });
    expect(currentValuesOf(current)).toEqual({ vpc: 'default', securityGroup: 'none', amiImage: 'default', sshPairKey: 'none', ebsVolumeSize: 10 });
  });

  it("never opens on a value its own rules refuse: a new policy's 'default' and 'none' start empty, and are not sent untouched", () => {
    const base = configValuesOf(current);
    expect(base).toEqual({ vpc: '', securityGroup: '', amiImage: '', sshPairKey: 'none', ebsVolumeSize: 10 });
    expect(configureBody('sc_1', base, base)).toBeNull();
    expect(configureBody('sc_1', { ...base, ebsVolumeSize: 20 }, base)).toEqual({ cidrId: 'sc_1', ebsVolumeSize: 20 });
  });

  it('judges and sends text without the spaces around it: a key pair of spaces is refused, never saved blank', () => {
    const base = configValuesOf(current);
    expect(fieldError({ ...base, sshPairKey: '   ' }, 'sshPairKey')).toBe(RULE.nonEmpty);
    expect(configureBody('sc_1', { ...base, sshPairKey: '  ops-key  ', vpc: ' vpc-9 ' }, base)).toEqual({ cidrId: 'sc_1', sshPairKey: 'ops-key', vpc: 'vpc-9' });
  });

  it('applies each shared rule with its own text', () => {
    const base = configValuesOf(current);
    expect(fieldError({ ...base, vpc: 'net-1' }, 'vpc')).toBe(RULE.vpc);
    expect(fieldError({ ...base, vpc: 'vpc-1' }, 'vpc')).toBeNull();
    expect(fieldError({ ...base, securityGroup: 'sg-1234567' }, 'securityGroup')).toBe(RULE.securityGroup);
    expect(fieldError({ ...base, securityGroup: 'sg-1234567g' }, 'securityGroup')).toBe(RULE.securityGroup);
    expect(fieldError({ ...base, securityGroup: 'sg-0123ABCD' }, 'securityGroup')).toBeNull();
    expect(fieldError({ ...base, amiImage: 'image' }, 'amiImage')).toBe(RULE.amiImage);
    expect(fieldError({ ...base, sshPairKey: '' }, 'sshPairKey')).toBe(RULE.nonEmpty);
    for (const ebs of [0, 16385, 1.5, Number.NaN, null]) {
      expect(fieldError({ ...base, ebsVolumeSize: ebs }, 'ebsVolumeSize'), String(ebs)).toBe(RULE.ebsVolumeSize);
    }
    expect(fieldError({ ...base, ebsVolumeSize: 16384 }, 'ebsVolumeSize')).toBeNull();
  });

  it("checks only the fields asked for, so a new policy's defaults do not block a change elsewhere", () => {
    const base = configValuesOf(current);
    expect(Object.keys(configErrors(base))).toEqual(['vpc', 'securityGroup', 'amiImage']);
    const edited = { ...base, ebsVolumeSize: 50 };
    expect(configErrors(edited, changedFields(edited, base))).toEqual({});
  });

  it('sends only the changed fields, or nothing at all, in a body the shared request schema accepts', () => {
    const base = configValuesOf(current);
    expect(configureBody('sc_1', base, base)).toBeNull();
    const body = configureBody('sc_1', { ...base, vpc: 'vpc-9', ebsVolumeSize: 20 }, base);
    expect(body).toEqual({ cidrId: 'sc_1', vpc: 'vpc-9', ebsVolumeSize: 20 });
    expect(ConfigureRequest.safeParse(body).success).toBe(true);
  });

  it('reads the EBS box: empty is no number, anything but a plain number is refused by the rule', () => {
    expect(parseEbsText('')).toBeNull();
    expect(parseEbsText(' 42 ')).toBe(42);
    expect(parseEbsText('1.5')).toBe(1.5);
    expect(parseEbsText('ten')).toBeNaN();
    expect(parseEbsText('1e3')).toBeNaN();
  });

  it('places a service refusal by error.field only, and shows the rule after the field name', () => {
    const description = 'securityGroup: must match ^sg-[0-9a-fA-F]{8,}$';
    const refusal = { kind: 'rejected' as const, status: 400, field: 'securityGroup', message: description, description };
    expect(configFieldOf(refusal)).toBe('securityGroup');
    expect(configFieldOf({ ...refusal, field: 'securityGroups' })).toBe('securityGroup');
    expect(configFieldOf({ ...refusal, field: 'capacityConfiguration' })).toBeNull();
    expect(configFieldOf({ kind: 'not-found', message: 'Instance type m4.large with platform Linux/UNIX is not supported' })).toBeNull();
    expect(ruleText(refusal)).toBe('must match ^sg-[0-9a-fA-F]{8,}$');
    expect(ruleText({ kind: 'invalid-input', message: 'Enter a policy id' })).toBe('Enter a policy id');
    expect(sentence('is not valid')).toBe('Is not valid');
  });
});

describe('doubts that do not block (issue 29)', () => {
  const values = (over: Partial<ConfigValues>): ConfigValues => ({ vpc: '', securityGroup: '', amiImage: '', sshPairKey: '', ebsVolumeSize: 10, ...over });

  it('warns where a value the service accepts does not look like the cloud\'s own: "vpc-zz", "ami-x", a key name with a space', () => {
    const odd = values({ vpc: 'vpc-zz', amiImage: 'ami-x', sshPairKey: 'my key' });
    // The service's rules accept them: nothing blocks the save.
    expect(configErrors(odd, ['vpc', 'amiImage', 'sshPairKey'])).toEqual({});
    const warnings = configWarnings(odd, ['vpc', 'amiImage', 'sshPairKey']);
    expect(Object.keys(warnings).sort()).toEqual(['amiImage', 'sshPairKey', 'vpc']);
    expect(warnings.vpc).toContain('does not look like a VPC id');
    expect(warnings.sshPairKey).toContain('spaces');
  });

  it('is quiet for ids in the cloud\'s format, for unchanged fields, and where the rule already refuses', () => {
    const good = values({ vpc: 'vpc-0a1b2c3d', amiImage: 'ami-0123456789abcdef0', sshPairKey: 'deploy-key' });
    expect(configWarnings(good, ['vpc', 'amiImage', 'sshPairKey'])).toEqual({});
    expect(configWarnings(values({ vpc: 'vpc-zz' }), [])).toEqual({});
    // "net-1" breaks the vpc- rule: that is an error, not also a warning.
    expect(configErrors(values({ vpc: 'net-1' }), ['vpc'])).toHaveProperty('vpc');
    expect(configWarnings(values({ vpc: 'net-1' }), ['vpc'])).toEqual({});
  });
});
