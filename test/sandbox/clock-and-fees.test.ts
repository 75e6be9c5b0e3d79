import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CapacityPage, CapacityView, MessageResponse, type CapacityPolicy } from '../../shared/api/capacity.js';
import { MESSAGE, OPERATING_STATE, QUERY, parseCancellationFee } from '../../shared/api/contract-choices.js';
import { CyberPage, CyberView } from '../../shared/api/cyber.js';
import { cancellationFee, roundCents } from '../../sandbox/state/fees.js';

/** The sandbox's stated rates (docs/sandbox.md), written out here so a change to the shared schedule shows. */
const FEE_RULE = { lowRate: 0.1, highRate: 0.25, afterLaunchRate: 0.5 } as const;
import { ALEX, DAY_S, Sandbox, expectBody, expectError } from './helpers.js';

const DAY = DAY_S * 1000;

describe('cancellationFee (pure)', () => {
  const launch = Date.UTC(2027, 0, 31);
  const end = launch + 10 * DAY;
  it.each([
    ['60 days before', launch - 60 * DAY, 0],
    ['exactly 30 days before', launch - 30 * DAY, 0],
    ['just under 30 days before', launch - 30 * DAY + 1, 100],
    ['exactly 7 days before', launch - 7 * DAY, 100],
    ['just under 7 days before', launch - 7 * DAY + 1, 250],
    ['a moment before launch', launch - 1, 250],
    ['at launch', launch, 500],
    ['mid-window', launch + 5 * DAY, 250],
    ['a tenth left', launch + 9 * DAY, 50],
  ])('%s', (_, now, fee) => {
    expect(cancellationFee(1000, launch, end, now)).toBe(fee);
  });
  it('rounds to cents', () => {
    expect(cancellationFee(333.333, launch, end, launch - 10 * DAY)).toBe(33.33);
    expect(roundCents(1.005)).toBe(1.01);
  });
});

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start({ seed: 11 });
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

async function listOf(token: string, status: string): Promise<CapacityPolicy[]> {
  const answer = await sandbox.call('listCapacities', token, { query: { [QUERY.status]: status, [QUERY.pageSize]: 100 } });
  return expectBody(answer, 200, CapacityPage).data;
}

/** Freezes the sandbox clock at an instant and signs in again (tokens expire on that clock). */
async function at(instantMs: number): Promise<string> {
  await sandbox.setClock({ now: new Date(instantMs).toISOString(), frozen: true });
  return sandbox.signIn(ALEX);
}

async function view(token: string, cidrId: string) {
  return expectBody(await sandbox.call('describeCapacity', token, { params: { cidr_id: cidrId } }), 200, CapacityView);
}

describe('the fee rule over HTTP, with the clock control', () => {
  const cases: [string, (launch: number, end: number) => number, number][] = [
    ['31 days before launch', (l) => l - 31 * DAY, 0],
    ['exactly 30 days before launch', (l) => l - 30 * DAY, 0],
    ['30 days minus a second', (l) => l - 30 * DAY + 1000, FEE_RULE.lowRate],
    ['exactly 7 days before launch', (l) => l - 7 * DAY, FEE_RULE.lowRate],
    ['7 days minus a second', (l) => l - 7 * DAY + 1000, FEE_RULE.highRate],
    ['a second before launch', (l) => l - 1000, FEE_RULE.highRate],
    ['at launch', (l) => l, FEE_RULE.afterLaunchRate],
    ['mid-window', (l, e) => l + (e - l) / 2, FEE_RULE.afterLaunchRate / 2],
  ];
  it.each(cases)('%s', async (_, instant, rate) => {
    const token0 = await sandbox.signIn(ALEX);
    const policy = (await listOf(token0, 'ACTIVE'))[0] as CapacityPolicy;
    const launch = Date.parse(policy.capacityConfiguration.launchDateTime);
    const end = Date.parse(policy.capacityConfiguration.endDateTime);
    const token = await at(instant(launch, end));
    const answer = expectBody(await sandbox.call('cancelCapacity', token, { body: { cidrId: policy.cidrId } }), 200, MessageResponse);
    const expected = roundCents(policy.pricing.ourPrice * rate);
    expect(answer.message).toBe(MESSAGE.canceled(policy.cidrId, expected));
    expect(parseCancellationFee(answer.message)).toBe(Number(expected.toFixed(2)));
  });
});

describe('time-driven statuses', () => {
  it('READY_FOR_PURCHASE becomes EXPIRED at launch, and cannot be bought then', async () => {
    const token0 = await sandbox.signIn(ALEX);
    const policy = (await listOf(token0, 'READY_FOR_PURCHASE'))[0] as CapacityPolicy;
    const launch = Date.parse(policy.capacityConfiguration.launchDateTime);
    let token = await at(launch - 1000);
    expect((await view(token, policy.cidrId)).policyDetails.policyStatus).toBe('READY_FOR_PURCHASE');
    token = await at(launch);
    const details = (await view(token, policy.cidrId)).policyDetails;
    expect([details.policyStatus, details.policyOperatingState]).toEqual(['EXPIRED', OPERATING_STATE.notStarted]);
    expect((await listOf(token, 'EXPIRED')).some((p) => p.cidrId === policy.cidrId)).toBe(true);
    expect((await listOf(token, 'READY_FOR_PURCHASE')).some((p) => p.cidrId === policy.cidrId)).toBe(false);
    expectError(await sandbox.call('purchaseCapacity', token, { body: { cidrId: policy.cidrId } }), 400, MESSAGE.cannotPurchase(policy.cidrId, 'EXPIRED'));
  });

  it('a purchased policy is queued, runs at launch and COMPLETES at its end', async () => {
    const token0 = await sandbox.signIn(ALEX);
    const policy = (await listOf(token0, 'READY_FOR_PURCHASE'))[0] as CapacityPolicy;
    await sandbox.call('purchaseCapacity', token0, { body: { cidrId: policy.cidrId } });
    const launch = Date.parse(policy.capacityConfiguration.launchDateTime);
    const end = Date.parse(policy.capacityConfiguration.endDateTime);
    let token = await at(launch);
    let details = (await view(token, policy.cidrId)).policyDetails;
    expect([details.policyStatus, details.policyOperatingState]).toEqual(['ACTIVE', OPERATING_STATE.running]);
    token = await at(end);
    details = (await view(token, policy.cidrId)).policyDetails;
    expect([details.policyStatus, details.policyOperatingState]).toEqual(['COMPLETED', OPERATING_STATE.stopped]);
    expectError(await sandbox.call('cancelCapacity', token, { body: { cidrId: policy.cidrId } }), 400, MESSAGE.cannotCancel(policy.cidrId, 'COMPLETED'));
  });

  it('every ACTIVE policy is COMPLETED, and every READY one EXPIRED, two years on; moving back does not undo it', async () => {
    const token0 = await sandbox.signIn(ALEX);
    const before = (await listOf(token0, 'ACTIVE')).length + (await listOf(token0, 'READY_FOR_PURCHASE')).length;
    expect(before).toBeGreaterThan(0);
    const now = Date.now();
    let token = await at(now + 730 * DAY);
    expect(await listOf(token, 'ACTIVE')).toEqual([]);
    expect(await listOf(token, 'READY_FOR_PURCHASE')).toEqual([]);
    token = await at(now);
    expect(await listOf(token, 'ACTIVE')).toEqual([]);
  });

  it('cyber ACTIVE policies complete at their end', async () => {
    const token0 = await sandbox.signIn(ALEX);
    const cid = ALEX.customers[0]?.cidExt as string;
    const active = expectBody(
      await sandbox.call('listCyberPolicies', token0, { params: { cid_ext: cid }, query: { [QUERY.status]: 'ACTIVE' } }),
      200,
      CyberPage,
    ).data[0];
    if (!active) throw new Error('no active cyber policy');
    const cyberView = expectBody(await sandbox.call('viewCyberPolicy', token0, { params: { cidr_id: active.cidrId } }), 200, CyberView);
    const token = await at(Date.parse(cyberView.dates.endDateTime));
    const after = expectBody(await sandbox.call('viewCyberPolicy', token, { params: { cidr_id: active.cidrId } }), 200, CyberView);
    expect(after.policyDetails.policyStatus).toBe('COMPLETED');
  });
});

describe('the clock control', () => {
  it('reads, sets, freezes and advances', async () => {
    let answer = await sandbox.control('GET', '/clock');
    expect(answer.body).toMatchObject({ frozen: false });
    answer = await sandbox.control('POST', '/clock', { now: '2030-01-01T00:00:00.000Z', frozen: true });
    expect(answer.body).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    answer = await sandbox.control('POST', '/clock', { advanceSeconds: 90 });
    expect(answer.body).toEqual({ now: '2030-01-01T00:01:30.000Z', frozen: true });
    answer = await sandbox.control('POST', '/clock', { now: '2030-06-01T12:00:00+02:00' });
    expect(answer.body).toEqual({ now: '2030-06-01T10:00:00.000Z', frozen: true });
    answer = await sandbox.control('POST', '/clock', { frozen: false });
    expect((answer.body as { frozen: boolean }).frozen).toBe(false);
    const ticking = Date.parse((answer.body as { now: string }).now);
    expect(ticking).toBeGreaterThanOrEqual(Date.parse('2030-06-01T10:00:00.000Z'));
    expect(ticking).toBeLessThan(Date.parse('2030-06-01T10:01:00.000Z'));
  });

  it('the error envelope timestamp follows the sandbox clock', async () => {
    await sandbox.setClock({ now: '2031-02-03T04:05:06.789Z', frozen: true });
    const answer = await sandbox.call('linkedAccounts', null);
    expect((answer.body as { error: { details: { timestamp: string } } }).error.details.timestamp).toBe('2031-02-03T04:05:06.789');
  });

  it.each([
    [{ now: 'tomorrow' }, 'now: must be an ISO 8601 date-time'],
    [{ advanceSeconds: '10' }, 'advanceSeconds: must be a number'],
    [{ frozen: 'yes' }, 'frozen: must be a boolean'],
  ])('400 for %j', async (body, description) => {
    expectError(await sandbox.control('POST', '/clock', body), 400, description);
  });
});
