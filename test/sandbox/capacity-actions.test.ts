import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CapacityPage, CapacityPolicy, CapacityView, MessageResponse } from '../../shared/api/capacity.js';
import {
  CAPACITY_STATUSES,
  DEFAULT_CONFIGURATION,
  MESSAGE,
  OPERATING_STATE,
  QUERY,
  RULE,
  parseCancellationFee,
} from '../../shared/api/contract-choices.js';
import { RETIRED_INSTANCE } from '../../sandbox/seed/catalog.js';
import { ALEX, JORDAN, Sandbox, expectBody, expectError } from './helpers.js';

let sandbox: Sandbox;
let alex: string;
let jordan: string;

beforeAll(async () => {
  sandbox = await Sandbox.start({ seed: 3 });
  alex = await sandbox.signIn(ALEX);
  jordan = await sandbox.signIn(JORDAN);
});
// Tokens outlive a reset: the signing secret is per process and the clock restarts at the machine's time.
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

async function policiesIn(token: string, status: string): Promise<CapacityPolicy[]> {
  const answer = await sandbox.call('listCapacities', token, { query: { [QUERY.status]: status, [QUERY.pageSize]: 100 } });
  return expectBody(answer, 200, CapacityPage).data;
}

async function first(token: string, status: string): Promise<CapacityPolicy> {
  const [policy] = await policiesIn(token, status);
  if (!policy) throw new Error(`no ${status} policy`);
  return policy;
}

async function describePolicy(token: string, cidrId: string) {
  return expectBody(await sandbox.call('describeCapacity', token, { params: { cidr_id: cidrId } }), 200, CapacityView);
}

describe('GET describe', () => {
  it('shows the groups of the view, agreeing with the record', async () => {
    for (const status of CAPACITY_STATUSES) {
      const policy = await first(alex, status);
      const view = await describePolicy(alex, policy.cidrId);
      expect(view.policyDetails).toEqual({
        cidrId: policy.cidrId,
        policyName: policy.policyName,
        policyStatus: status,
        policyOperatingState: policy.policyOperatingState,
        cspAccountName: policy.cspAccountName,
      });
      expect(view.instances).toEqual([policy.policyInstance]);
      expect(view.regionSettings).toEqual(policy.cspRegion);
      expect(view.configuration).toEqual(policy.capacityConfiguration);
      expect(view.pricing).toEqual(policy.pricing);
      expect(view.dates.launchDateTime).toBe(policy.capacityConfiguration.launchDateTime);
    }
  });

  it("404 for an unknown id and, identically, for another user's id", async () => {
    const theirs = await first(jordan, 'ACTIVE');
    expectError(await sandbox.call('describeCapacity', alex, { params: { cidr_id: 'sc_999' } }), 404, MESSAGE.policyNotFound('sc_999'));
    expectError(await sandbox.call('describeCapacity', alex, { params: { cidr_id: theirs.cidrId } }), 404, MESSAGE.policyNotFound(theirs.cidrId));
  });

  it('401 without a token', async () => {
    expectError(await sandbox.call('describeCapacity', null, { params: { cidr_id: 'sc_1' } }), 401, MESSAGE.tokenUnusable);
  });
});

describe('POST purchase', () => {
  it('turns READY_FOR_PURCHASE into ACTIVE, queued, with the default configuration', async () => {
    const policy = await first(alex, 'READY_FOR_PURCHASE');
    const bought = expectBody(await sandbox.call('purchaseCapacity', alex, { body: { cidrId: policy.cidrId } }), 200, CapacityPolicy);
    expect(bought.policyStatus).toBe('ACTIVE');
    expect(bought.policyOperatingState).toBe(OPERATING_STATE.queuedForStart);
    expect(bought.capacityConfiguration).toEqual({
      ...policy.capacityConfiguration,
      ...DEFAULT_CONFIGURATION,
    });
    expect(bought.pricing).toEqual(policy.pricing);
    expect((await policiesIn(alex, 'ACTIVE')).some((p) => p.cidrId === policy.cidrId)).toBe(true);
    expect((await policiesIn(alex, 'READY_FOR_PURCHASE')).some((p) => p.cidrId === policy.cidrId)).toBe(false);
    expectError(
      await sandbox.call('purchaseCapacity', alex, { body: { cidrId: policy.cidrId } }),
      400,
      MESSAGE.cannotPurchase(policy.cidrId, 'ACTIVE'),
    );
  });

  it.each(CAPACITY_STATUSES.filter((s) => s !== 'READY_FOR_PURCHASE'))('400 for a policy in %s', async (status) => {
    const policy = await first(alex, status);
    expectError(await sandbox.call('purchaseCapacity', alex, { body: { cidrId: policy.cidrId } }), 400, MESSAGE.cannotPurchase(policy.cidrId, status));
  });

  it("404 for unknown and for another user's policies; the other user's policy is untouched", async () => {
    const theirs = await first(jordan, 'READY_FOR_PURCHASE');
    expectError(await sandbox.call('purchaseCapacity', alex, { body: { cidrId: 'sc_42' } }), 404, MESSAGE.policyNotFound('sc_42'));
    expectError(await sandbox.call('purchaseCapacity', alex, { body: { cidrId: theirs.cidrId } }), 404, MESSAGE.policyNotFound(theirs.cidrId));
    expect((await describePolicy(jordan, theirs.cidrId)).policyDetails.policyStatus).toBe('READY_FOR_PURCHASE');
  });

  it.each([
    ['no cidrId', '{}', MESSAGE.fieldRule('cidrId', RULE.required)],
    ['an empty cidrId', '{"cidrId":""}', MESSAGE.fieldRule('cidrId', RULE.required)],
    ['a number cidrId', '{"cidrId":5}', MESSAGE.fieldRule('cidrId', RULE.required)],
    ['a non-JSON body', 'cidrId=sc_1', MESSAGE.bodyUnparsable],
    ['an empty body', '', MESSAGE.bodyUnparsable],
    ['a JSON array', '["sc_1"]', MESSAGE.bodyUnparsable],
  ])('400 for %s', async (_, rawBody, description) => {
    expectError(await sandbox.call('purchaseCapacity', alex, { rawBody }), 400, description);
  });

  it('401 before anything else', async () => {
    expectError(await sandbox.call('purchaseCapacity', null, { rawBody: 'junk' }), 401, MESSAGE.tokenUnusable);
  });

  it('is counted in the stats', async () => {
    const policy = await first(alex, 'READY_FOR_PURCHASE');
    await sandbox.call('purchaseCapacity', alex, { body: { cidrId: policy.cidrId } });
    await sandbox.call('purchaseCapacity', alex, { body: { cidrId: policy.cidrId } });
    const stats = (await sandbox.control('GET', '/stats')).body as Record<string, number>;
    expect(stats['purchaseCapacity']).toBe(2);
    expect(stats['cancelCapacity']).toBe(0);
  });
});

describe('POST cancel', () => {
  it('turns ACTIVE into CANCELED and states the fee', async () => {
    const policy = await first(alex, 'ACTIVE');
    const answer = expectBody(await sandbox.call('cancelCapacity', alex, { body: { cidrId: policy.cidrId } }), 200, MessageResponse);
    expect(answer.message).toMatch(new RegExp(`^Policy ${policy.cidrId} canceled successfully\\. Early cancellation fee: \\d+\\.\\d{2}$`));
    expect(parseCancellationFee(answer.message)).not.toBeNull();
    const view = await describePolicy(alex, policy.cidrId);
    expect(view.policyDetails.policyStatus).toBe('CANCELED');
    expect(view.policyDetails.policyOperatingState).toBe(OPERATING_STATE.stopped);
    expectError(await sandbox.call('cancelCapacity', alex, { body: { cidrId: policy.cidrId } }), 400, MESSAGE.cannotCancel(policy.cidrId, 'CANCELED'));
  });

  it.each(CAPACITY_STATUSES.filter((s) => s !== 'ACTIVE'))('400 for a policy in %s', async (status) => {
    const policy = await first(alex, status);
    expectError(await sandbox.call('cancelCapacity', alex, { body: { cidrId: policy.cidrId } }), 400, MESSAGE.cannotCancel(policy.cidrId, status));
  });

  it('a purchased policy can be canceled', async () => {
    const policy = await first(jordan, 'READY_FOR_PURCHASE');
    await sandbox.call('purchaseCapacity', jordan, { body: { cidrId: policy.cidrId } });
    expect((await sandbox.call('cancelCapacity', jordan, { body: { cidrId: policy.cidrId } })).status).toBe(200);
  });

  it("404 for another user's policy", async () => {
    const theirs = await first(jordan, 'ACTIVE');
    expectError(await sandbox.call('cancelCapacity', alex, { body: { cidrId: theirs.cidrId } }), 404, MESSAGE.policyNotFound(theirs.cidrId));
  });

  it('400 for a malformed body', async () => {
    expectError(await sandbox.call('cancelCapacity', alex, { rawBody: '{"cidrId":' }), 400, MESSAGE.bodyUnparsable);
  });
});

describe('PUT capacity-configuration', () => {
  it('updates only the fields sent, storing securityGroup as securityGroups', async () => {
    const policy = (await policiesIn(alex, 'ACTIVE')).find((p) => p.policyInstance.instanceType !== RETIRED_INSTANCE.instanceType);
    if (!policy) throw new Error('no active policy');
    const one = expectBody(
      await sandbox.call('configureCapacity', alex, { body: { cidrId: policy.cidrId, vpc: 'vpc-0abc' } }),
      200,
      CapacityPolicy,
    );
    expect(one.capacityConfiguration).toEqual({ ...policy.capacityConfiguration, vpc: 'vpc-0abc' });
    const all = expectBody(
      await sandbox.call('configureCapacity', alex, {
        body: { cidrId: policy.cidrId, securityGroup: 'sg-0123abcd', amiImage: 'ami-42', sshPairKey: 'ops', ebsVolumeSize: 16384 },
      }),
      200,
      CapacityPolicy,
    );
    expect(all.capacityConfiguration).toEqual({
      ...policy.capacityConfiguration,
      vpc: 'vpc-0abc',
      securityGroups: 'sg-0123abcd',
      amiImage: 'ami-42',
      sshPairKey: 'ops',
      ebsVolumeSize: 16384,
    });
    expect(all.capacityConfiguration).not.toHaveProperty('securityGroup');
    expect((await describePolicy(alex, policy.cidrId)).configuration).toEqual(all.capacityConfiguration);
  });

  it.each([
    ['vpc', 'subnet-1', RULE.vpc],
    ['vpc', 5, RULE.string],
    ['securityGroup', 'sg-123', RULE.securityGroup],
    ['securityGroup', 'sg-xyzxyzxy', RULE.securityGroup],
    ['securityGroup', 'group-0123abcd', RULE.securityGroup],
    ['amiImage', 'img-1', RULE.amiImage],
    ['sshPairKey', '', RULE.nonEmpty],
    ['ebsVolumeSize', 0, RULE.ebsVolumeSize],
    ['ebsVolumeSize', 16385, RULE.ebsVolumeSize],
    ['ebsVolumeSize', 1.5, RULE.ebsVolumeSize],
    ['ebsVolumeSize', '10', RULE.ebsVolumeSize],
  ])('400 for %s=%j', async (field, value, rule) => {
    const policy = await first(alex, 'ACTIVE');
    expectError(
      await sandbox.call('configureCapacity', alex, { body: { cidrId: policy.cidrId, [field]: value } }),
      400,
      MESSAGE.fieldRule(field, rule),
    );
  });

  it('400 when no configurable field is sent', async () => {
    const policy = await first(alex, 'ACTIVE');
    expectError(
      await sandbox.call('configureCapacity', alex, { body: { cidrId: policy.cidrId } }),
      400,
      /^[A-Za-z]+: at least one of vpc, securityGroup, amiImage, sshPairKey, ebsVolumeSize is required$/,
    );
  });

  it('400 without cidrId', async () => {
    expectError(await sandbox.call('configureCapacity', alex, { body: { vpc: 'vpc-1' } }), 400, MESSAGE.fieldRule('cidrId', RULE.required));
  });

  it('404 for unknown and for other users’ policies', async () => {
    const theirs = await first(jordan, 'ACTIVE');
    expectError(await sandbox.call('configureCapacity', alex, { body: { cidrId: theirs.cidrId, vpc: 'vpc-1' } }), 404, MESSAGE.policyNotFound(theirs.cidrId));
  });

  it('404 when the instance type and platform are no longer supported', async () => {
    const retired = (await policiesIn(alex, 'ACTIVE')).find((p) => p.policyInstance.instanceType === RETIRED_INSTANCE.instanceType);
    if (!retired) throw new Error('the seed has no retired-type policy');
    expectError(
      await sandbox.call('configureCapacity', alex, { body: { cidrId: retired.cidrId, vpc: 'vpc-1' } }),
      404,
      MESSAGE.unsupportedInstance(retired.policyInstance.instanceType, retired.policyInstance.platformCode),
    );
  });
});

describe('PUT auto-renewal', () => {
  it('enables with a frequency and disables storing null', async () => {
    const policy = await first(alex, 'ACTIVE');
    const on = expectBody(
      await sandbox.call('setAutoRenewal', alex, { body: { cidrId: policy.cidrId, autoRenewalEnabled: true, frequency: 'ONE_WEEK' } }),
      200,
      MessageResponse,
    );
    expect(on.message).toBe(MESSAGE.autoRenewalUpdated(policy.cidrId));
    let config = (await describePolicy(alex, policy.cidrId)).configuration;
    expect([config.autoRenewalEnabled, config.frequency]).toEqual([true, 'ONE_WEEK']);
    await sandbox.call('setAutoRenewal', alex, { body: { cidrId: policy.cidrId, autoRenewalEnabled: false, frequency: 'ONE_MONTH' } });
    config = (await describePolicy(alex, policy.cidrId)).configuration;
    expect([config.autoRenewalEnabled, config.frequency]).toEqual([false, null]);
  });

  it.each([
    [{ autoRenewalEnabled: 'yes', frequency: 'ONE_WEEK' }, MESSAGE.fieldRule('autoRenewalEnabled', RULE.boolean)],
    [{ frequency: 'ONE_WEEK' }, MESSAGE.fieldRule('autoRenewalEnabled', RULE.boolean)],
    [{ autoRenewalEnabled: true }, MESSAGE.fieldRule('frequency', RULE.frequencyRequired)],
    [{ autoRenewalEnabled: true, frequency: 'DAILY' }, MESSAGE.fieldRule('frequency', RULE.frequency)],
  ])('400 for %j', async (fields, description) => {
    const policy = await first(alex, 'ACTIVE');
    expectError(await sandbox.call('setAutoRenewal', alex, { body: { cidrId: policy.cidrId, ...fields } }), 400, description);
  });

  it('400 for a body that is not JSON', async () => {
    expectError(await sandbox.call('setAutoRenewal', alex, { rawBody: '{autoRenewalEnabled: true}' }), 400, MESSAGE.bodyUnparsable);
  });

  it("404 for another user's policy", async () => {
    const theirs = await first(jordan, 'ACTIVE');
    expectError(
      await sandbox.call('setAutoRenewal', alex, { body: { cidrId: theirs.cidrId, autoRenewalEnabled: false } }),
      404,
      MESSAGE.policyNotFound(theirs.cidrId),
    );
  });
});
