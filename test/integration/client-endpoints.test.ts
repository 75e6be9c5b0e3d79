/**
 * Every endpoint of the API client against the sandbox over real HTTP: its
 * success answer parsed by the shared schemas, and each documented error
 * turned into the typed error the renderer acts on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions, ResponseOf } from '../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../electron/services/api-client/errors.js';
import { DEFAULT_TIMEOUTS } from '../../electron/services/api-client/http-agent.js';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { DEFAULT_CONFIGURATION, MESSAGE, OPERATING_STATE, RULE, TERMINATION_EVENT_TYPE } from '../../shared/api/contract-choices.js';
import { ENDPOINTS, type AuthenticatedEndpoint, type EndpointName } from '../../shared/api/endpoints.js';
import type { AppError } from '../../shared/ipc/result.js';
import { ALEX, JORDAN, startClientSandbox, type ClientSandbox } from '../unit/api-client/sandbox-fixture.js';

let env: ClientSandbox;
let token: string;
let policies: CapacityPolicy[];

beforeAll(async () => {
  // No timeout is tested here: the app's own timeouts, not the fault tests' 200 ms. A sign-in's scrypt passed 200 ms
  // at load 18, and even 1.5 s at load 20.
  env = await startClientSandbox({ timeouts: DEFAULT_TIMEOUTS });
  token = await env.signIn(ALEX);
  policies = [];
  for (let page = 1; ; page += 1) {
    const answer = await env.client.call('listCapacities', { token, query: { page, pageSize: 100, sortOrder: 'asc' } });
    policies.push(...answer.data);
    if (policies.length >= answer.total || answer.data.length === 0) break;
  }
});
afterAll(() => env.close());

/** The typed error a call fails with (fails the test when it succeeds). */
async function failure<N extends EndpointName>(name: N, options: CallOptions<N>): Promise<AppError> {
  try {
    await env.client.call(name, options);
  } catch (error) {
    if (error instanceof ApiFailure) return error.error;
    throw error;
  }
  throw new Error(`${name} succeeded but was expected to fail`);
}

function policyIn(status: string, skip = 0): CapacityPolicy {
  const found = policies.filter((p) => p.policyStatus === status)[skip];
  if (!found) throw new Error(`no ${status} policy #${skip} in the seed`);
  return found;
}

const BAD_TOKEN = 'not.a.token';
const tokenRejected = { kind: 'unauthorized', status: 401, description: MESSAGE.tokenUnusable };

describe('sign-in', () => {
  it('answers a bearer token with its lifetime', async () => {
    const answer = await env.client.call('signIn', { body: { username: JORDAN.username, password: JORDAN.password } });
    expect(answer).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(answer.access_token.split('.')).toHaveLength(3);
  });

  it('refuses missing and wrong credentials with the service description', async () => {
    expect(await failure('signIn', { body: { username: '', password: '' } })).toEqual({
      kind: 'rejected',
      status: 400,
      message: MESSAGE.credentialsRequired,
      description: MESSAGE.credentialsRequired,
    });
    expect(await failure('signIn', { body: { username: ALEX.username, password: 'wrong' } })).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      description: MESSAGE.invalidCredentials,
    });
  });
});

describe('linked accounts', () => {
  it('lists the user’s accounts and rejects a bad token', async () => {
    const accounts = await env.client.call('linkedAccounts', { token });
    expect(accounts.map((a) => a.accountId)).toEqual(ALEX.linkedAccounts.map((a) => a.accountId));
    expect(await failure('linkedAccounts', { token: BAD_TOKEN })).toMatchObject(tokenRejected);
  });
});

describe('capacity list and describe', () => {
  it('pages, filters and sorts', async () => {
    const page = await env.client.call('listCapacities', { token, query: { page: 2, pageSize: 5, status: 'ACTIVE', sortOrder: 'desc' } });
    expect(page).toMatchObject({ page: 2, pageSize: 5 });
    expect(page.data.length).toBeLessThanOrEqual(5);
    expect(page.data.every((p) => p.policyStatus === 'ACTIVE')).toBe(true);
    const past = await env.client.call('listCapacities', { token, query: { page: 999, pageSize: 100 } });
    expect(past.data).toEqual([]);
    expect(past.total).toBe(policies.length);
  });

  it('reports an unknown status as not found and a bad page size on its field', async () => {
    expect(await failure('listCapacities', { token, query: { status: 'PAUSED' } })).toMatchObject({
      kind: 'not-found',
      status: 404,
      description: MESSAGE.statusNotFound('PAUSED'),
    });
    expect(await failure('listCapacities', { token, query: { pageSize: 0 } })).toMatchObject({
      kind: 'rejected',
      field: 'pageSize',
      description: MESSAGE.fieldRule('pageSize', RULE.pageSize),
    });
    expect(await failure('listCapacities', { token: BAD_TOKEN, query: {} })).toMatchObject(tokenRejected);
  });

  it('describes a policy in named groups, and 404s one of another user', async () => {
    const policy = policyIn('ACTIVE');
    const view = await env.client.call('describeCapacity', { token, params: { cidr_id: policy.cidrId } });
    expect(view.policyDetails).toMatchObject({ cidrId: policy.cidrId, policyStatus: 'ACTIVE' });
    const jordanToken = await env.signIn(JORDAN);
    expect(await failure('describeCapacity', { token: jordanToken, params: { cidr_id: policy.cidrId } })).toMatchObject({
      kind: 'not-found',
      description: MESSAGE.policyNotFound(policy.cidrId),
    });
    expect(await failure('describeCapacity', { token: BAD_TOKEN, params: { cidr_id: policy.cidrId } })).toMatchObject(tokenRejected);
  });
});

describe('search', () => {
  const query = {
    instanceType: 'm5.large',
    platform: 'Linux/UNIX',
    availabilityZone: 'use1-az1',
    startDate: '03/01/2027',
    endDate: '03/31/2027',
    clientUtcOffset: 0,
  };

  it('answers offerings for a supported instance type', async () => {
    const offerings = await env.client.call('searchCapacity', { token, query });
    expect(offerings.length).toBeGreaterThan(0);
    expect(typeof offerings[0]?.status).toBe('string');
  });

  it('puts a bad date on its field and 404s an unsupported instance type', async () => {
    expect(await failure('searchCapacity', { token, query: { ...query, startDate: '13/45/2027' } })).toMatchObject({
      kind: 'rejected',
      status: 400,
      field: 'startDate',
    });
    expect(await failure('searchCapacity', { token, query: { ...query, clientUtcOffset: 19 } })).toMatchObject({
      kind: 'rejected',
      field: 'clientUtcOffset',
    });
    expect(await failure('searchCapacity', { token, query: { ...query, instanceType: 'x9.huge' } })).toMatchObject({
      kind: 'not-found',
      description: MESSAGE.unsupportedInstance('x9.huge', 'Linux/UNIX'),
    });
  });
});

describe('purchase, configure, auto-renewal, cancel', () => {
  it('purchases a ready policy and refuses a second purchase on cidrId', async () => {
    const ready = policyIn('READY_FOR_PURCHASE');
    const bought: ResponseOf<'purchaseCapacity'> = await env.client.call('purchaseCapacity', { token, body: { cidrId: ready.cidrId } });
    expect(bought).toMatchObject({
      cidrId: ready.cidrId,
      policyStatus: 'ACTIVE',
      policyOperatingState: OPERATING_STATE.queuedForStart,
      capacityConfiguration: { vpc: DEFAULT_CONFIGURATION.vpc, ebsVolumeSize: DEFAULT_CONFIGURATION.ebsVolumeSize },
    });
    expect(await failure('purchaseCapacity', { token, body: { cidrId: ready.cidrId } })).toMatchObject({
      kind: 'rejected',
      field: 'cidrId',
      description: MESSAGE.cannotPurchase(ready.cidrId, 'ACTIVE'),
    });
    expect(await failure('purchaseCapacity', { token, body: { cidrId: 'sc_0' } })).toMatchObject({ kind: 'not-found' });
  });

  it('configures a policy, putting each rule failure on its field', async () => {
    const active = policyIn('ACTIVE', 1);
    const configured = await env.client.call('configureCapacity', {
      token,
      body: { cidrId: active.cidrId, vpc: 'vpc-0a1b2c', securityGroup: 'sg-0123abcd', ebsVolumeSize: 50 },
    });
    expect(configured.capacityConfiguration).toMatchObject({ vpc: 'vpc-0a1b2c', securityGroups: 'sg-0123abcd', ebsVolumeSize: 50 });
    expect(await failure('configureCapacity', { token, body: { cidrId: active.cidrId, vpc: 'net-1' } })).toEqual({
      kind: 'rejected',
      status: 400,
      field: 'vpc',
      message: MESSAGE.fieldRule('vpc', RULE.vpc),
      description: MESSAGE.fieldRule('vpc', RULE.vpc),
    });
    expect(await failure('configureCapacity', { token, body: { cidrId: active.cidrId, securityGroup: 'sg-12' } })).toMatchObject({
      field: 'securityGroup',
    });
    expect(await failure('configureCapacity', { token, body: { cidrId: 'sc_0', vpc: 'vpc-1' } })).toMatchObject({ kind: 'not-found' });
  });

  it('404s configure on an instance type the service no longer supports', async () => {
    const retired = policies.find((p) => p.policyInstance.instanceType === 'm4.large');
    if (!retired) throw new Error('the seed has a retired-instance policy');
    expect(await failure('configureCapacity', { token, body: { cidrId: retired.cidrId, vpc: 'vpc-1' } })).toMatchObject({
      kind: 'not-found',
      description: MESSAGE.unsupportedInstance('m4.large', retired.policyInstance.platformCode),
    });
  });

  it('sets auto-renewal and puts a bad frequency on its field', async () => {
    const active = policyIn('ACTIVE', 2);
    const answer = await env.client.call('setAutoRenewal', {
      token,
      body: { cidrId: active.cidrId, autoRenewalEnabled: true, frequency: 'ONE_WEEK' },
    });
    expect(answer.message).toBe(MESSAGE.autoRenewalUpdated(active.cidrId));
    expect(
      await failure('setAutoRenewal', { token, body: { cidrId: active.cidrId, autoRenewalEnabled: true, frequency: null } }),
    ).toMatchObject({ kind: 'rejected', field: 'frequency' });
    expect(await failure('setAutoRenewal', { token, body: { cidrId: 'sc_0', autoRenewalEnabled: false } })).toMatchObject({
      kind: 'not-found',
    });
  });

  it('cancels an active policy with a fee, and refuses to cancel it twice', async () => {
    const active = policyIn('ACTIVE', 3);
    const answer = await env.client.call('cancelCapacity', { token, body: { cidrId: active.cidrId } });
    expect(answer.message).toMatch(new RegExp(`^Policy ${active.cidrId} canceled successfully\\. Early cancellation fee: \\d+\\.\\d{2}$`));
    expect(await failure('cancelCapacity', { token, body: { cidrId: active.cidrId } })).toMatchObject({
      kind: 'rejected',
      field: 'cidrId',
      description: MESSAGE.cannotCancel(active.cidrId, 'CANCELED'),
    });
    expect(await failure('cancelCapacity', { token: BAD_TOKEN, body: { cidrId: active.cidrId } })).toMatchObject(tokenRejected);
  });
});

describe('cyber policies', () => {
  const customer = ALEX.customers[0]?.cidExt ?? 'CUST-1001';

  it('lists a customer’s policies, views one and terminates it once', async () => {
    const page = await env.client.call('listCyberPolicies', { token, params: { cid_ext: customer }, query: { pageSize: 50 } });
    expect(page.total).toBeGreaterThan(0);
    const target = page.data.find((p) => p.terminationTriggered !== true) ?? page.data[0];
    if (!target) throw new Error('no cyber policy');
    const view = await env.client.call('viewCyberPolicy', { token, params: { cidr_id: target.cidrId } });
    expect(view.policyDetails.cidrId).toBe(target.cidrId);

    const first = await env.client.call('terminateCyberEvent', { token, params: { cidr_id: target.cidrId } });
    expect(first).toMatchObject({ code: 201, message: MESSAGE.terminationCreated });
    const again = await env.client.call('terminateCyberEvent', { token, params: { cidr_id: target.cidrId } });
    expect(again).toEqual({ code: 200, data: { id: null }, message: MESSAGE.terminationAlready });
    const after = await env.client.call('viewCyberPolicy', { token, params: { cidr_id: target.cidrId } });
    expect(after.disasterRecoveryEvents.some((e) => e.type === TERMINATION_EVENT_TYPE)).toBe(true);
  });

  it('404s an unknown or another user’s customer and policy, and puts a bad page on its field', async () => {
    expect(await failure('listCyberPolicies', { token, params: { cid_ext: 'CUST-9999' }, query: {} })).toMatchObject({
      kind: 'not-found',
      description: MESSAGE.customerNotFound('CUST-9999'),
    });
    const jordansCustomer = JORDAN.customers[0]?.cidExt ?? 'CUST-2001';
    expect(await failure('listCyberPolicies', { token, params: { cid_ext: jordansCustomer }, query: {} })).toMatchObject({
      kind: 'not-found',
      description: MESSAGE.customerNotFound(jordansCustomer),
    });
    expect(await failure('listCyberPolicies', { token, params: { cid_ext: customer }, query: { page: 0 } })).toMatchObject({
      kind: 'rejected',
      field: 'page',
    });
    expect(await failure('viewCyberPolicy', { token, params: { cidr_id: 'sc_0' } })).toMatchObject({ kind: 'not-found' });
    expect(await failure('terminateCyberEvent', { token, params: { cidr_id: 'sc_0' } })).toMatchObject({ kind: 'not-found' });
  });
});

/**
 * One valid call of every endpoint that needs a token, with the token left to the caller. Keyed by
 * the endpoint table's `auth`: a new authenticated endpoint does not compile here until it has its
 * case, so none escapes the 401 and 500 checks below.
 */
const AUTHENTICATED_CALLS: { readonly [N in AuthenticatedEndpoint]: (t: string) => CallOptions<N> } = {
  linkedAccounts: (t) => ({ token: t }),
  configureCapacity: (t) => ({ token: t, body: { cidrId: 'sc_1', vpc: 'vpc-1' } }),
  setAutoRenewal: (t) => ({ token: t, body: { cidrId: 'sc_1', autoRenewalEnabled: false } }),
  purchaseCapacity: (t) => ({ token: t, body: { cidrId: 'sc_1' } }),
  cancelCapacity: (t) => ({ token: t, body: { cidrId: 'sc_1' } }),
  searchCapacity: (t) => ({
    token: t,
    query: { instanceType: 'm5.large', platform: 'Linux/UNIX', availabilityZone: 'use1-az1', startDate: '03/01/2027', endDate: '03/02/2027' },
  }),
  listCapacities: (t) => ({ token: t, query: {} }),
  describeCapacity: (t) => ({ token: t, params: { cidr_id: 'sc_1' } }),
  listCyberPolicies: (t) => ({ token: t, params: { cid_ext: 'CUST-1001' }, query: {} }),
  viewCyberPolicy: (t) => ({ token: t, params: { cidr_id: 'sc_5000001' } }),
  terminateCyberEvent: (t) => ({ token: t, params: { cidr_id: 'sc_5000001' } }),
};
const AUTHENTICATED = Object.entries(AUTHENTICATED_CALLS) as Array<[EndpointName, (t: string) => CallOptions<EndpointName>]>;

describe('documented errors of every endpoint', () => {
  it('has a call for every endpoint the table marks as needing a token', () => {
    const authenticated = (Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => ENDPOINTS[name].auth);
    expect(AUTHENTICATED.map(([name]) => name).sort()).toEqual(authenticated.sort());
  });

  it.each(AUTHENTICATED)('%s: an unusable token is unauthorized', async (name, options) => {
    expect(await failure(name, options(BAD_TOKEN))).toMatchObject(tokenRejected);
  });

  it('the service’s own 500 is a server error with its description, for every endpoint', async () => {
    await env.addFault({ throwRate: 1 });
    try {
      expect(await failure('signIn', { body: { username: ALEX.username, password: ALEX.password } })).toEqual({
        kind: 'server',
        status: 500,
        message: MESSAGE.unexpected,
        description: MESSAGE.unexpected,
      });
      for (const [name, options] of AUTHENTICATED) {
        expect(await failure(name, options(token)), name).toMatchObject({ kind: 'server', status: 500, description: MESSAGE.unexpected });
      }
    } finally {
      await env.clearFaults();
    }
  });
});
