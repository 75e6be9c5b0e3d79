import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CYBER_STATUSES, MESSAGE, PAGING, QUERY, RULE, TERMINATION_EVENT_TYPE } from '../../shared/api/contract-choices.js';
import { CyberPage, CyberView, TerminateAlreadyTriggered, TerminateCreated, type CyberListItem } from '../../shared/api/cyber.js';
import { ALEX, JORDAN, Sandbox, expectBody, expectError } from './helpers.js';

let sandbox: Sandbox;
let alex: string;
let jordan: string;
const [CUST_A, CUST_B] = ALEX.customers.map((c) => c.cidExt) as [string, string];
const CUST_J = JORDAN.customers[0]?.cidExt as string;

beforeAll(async () => {
  sandbox = await Sandbox.start({ seed: 5, scale: 600 });
  alex = await sandbox.signIn(ALEX);
  jordan = await sandbox.signIn(JORDAN);
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

async function list(token: string, cid: string, query: Record<string, string | number> = {}) {
  return expectBody(await sandbox.call('listCyberPolicies', token, { params: { cid_ext: cid }, query }), 200, CyberPage);
}

async function all(token: string, cid: string, query: Record<string, string | number> = {}): Promise<CyberListItem[]> {
  const items: CyberListItem[] = [];
  for (let page = 1; ; page++) {
    const result = await list(token, cid, { ...query, [QUERY.page]: page, [QUERY.pageSize]: PAGING.maxPageSize });
    items.push(...result.data);
    if (result.data.length < PAGING.maxPageSize) {
      expect(items).toHaveLength(result.total);
      return items;
    }
  }
}

describe('GET cyber customer list', () => {
  it('defaults to page 1 of 10, newest first, per customer', async () => {
    const result = await list(alex, CUST_A);
    expect([result.page, result.pageSize, result.data.length]).toEqual([1, 10, 10]);
    const times = result.data.map((item) => Date.parse(item.createdDate));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const item of result.data) expect(item.customerId).toBe(CUST_A);
  });

  it('customers hold their own policies; asc is desc reversed; pages add up', async () => {
    const a = await all(alex, CUST_A);
    const b = await all(alex, CUST_B);
    const j = await all(jordan, CUST_J);
    const ids = new Set(a.map((p) => p.cidrId));
    for (const p of [...b, ...j]) expect(ids.has(p.cidrId)).toBe(false);
    expect((await all(alex, CUST_A, { [QUERY.sortOrder]: 'asc' })).map((p) => p.cidrId)).toEqual([...a].reverse().map((p) => p.cidrId));
    const second = await list(alex, CUST_A, { [QUERY.page]: 2, [QUERY.pageSize]: 4 });
    expect(second.data.map((p) => p.cidrId)).toEqual(a.slice(4, 8).map((p) => p.cidrId));
    const past = await list(alex, CUST_A, { [QUERY.page]: 1000 });
    expect([past.data.length, past.total]).toEqual([0, a.length]);
  });

  it('filters by each status, for every customer', async () => {
    for (const [token, cid] of [[alex, CUST_A], [alex, CUST_B], [jordan, CUST_J]] as const) {
      const everything = await all(token, cid);
      for (const status of CYBER_STATUSES) {
        const filtered = await all(token, cid, { [QUERY.status]: status });
        expect(filtered.length, `${cid} ${status}`).toBeGreaterThan(0);
        expect(filtered.map((p) => p.cidrId)).toEqual(everything.filter((p) => p.policyStatus === status).map((p) => p.cidrId));
      }
    }
  });

  it('filters by a case-insensitive substring of the name, combined with status', async () => {
    const everything = await all(alex, CUST_A);
    const sample = everything[0]?.policyName as string;
    const word = (sample.split(' ')[1] as string).toUpperCase();
    const byName = await all(alex, CUST_A, { [QUERY.policyName]: word });
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.map((p) => p.cidrId)).toEqual(
      everything.filter((p) => p.policyName.toLowerCase().includes(word.toLowerCase())).map((p) => p.cidrId),
    );
    const both = await all(alex, CUST_A, { [QUERY.policyName]: word.toLowerCase(), [QUERY.status]: 'ACTIVE' });
    expect(both.map((p) => p.cidrId)).toEqual(byName.filter((p) => p.policyStatus === 'ACTIVE').map((p) => p.cidrId));
    expect((await list(alex, CUST_A, { [QUERY.policyName]: 'no such policy name' })).total).toBe(0);
  });

  it("404 for an unknown customer and, identically, another user's customer", async () => {
    expectError(await sandbox.call('listCyberPolicies', alex, { params: { cid_ext: 'CUST-9999' } }), 404, MESSAGE.customerNotFound('CUST-9999'));
    expectError(await sandbox.call('listCyberPolicies', alex, { params: { cid_ext: CUST_J } }), 404, MESSAGE.customerNotFound(CUST_J));
    expectError(await sandbox.call('listCyberPolicies', jordan, { params: { cid_ext: CUST_A } }), 404, MESSAGE.customerNotFound(CUST_A));
  });

  it('404 for an unknown status, 400 for malformed paging', async () => {
    expectError(await sandbox.call('listCyberPolicies', alex, { params: { cid_ext: CUST_A }, query: { [QUERY.status]: 'EXPIRED' } }), 404, MESSAGE.statusNotFound('EXPIRED'));
    expectError(await sandbox.call('listCyberPolicies', alex, { params: { cid_ext: CUST_A }, query: { [QUERY.page]: '0' } }), 400, MESSAGE.fieldRule(QUERY.page, RULE.page));
    expectError(await sandbox.call('listCyberPolicies', alex, { params: { cid_ext: CUST_A }, query: { [QUERY.pageSize]: '500' } }), 400, MESSAGE.fieldRule(QUERY.pageSize, RULE.pageSize));
    expectError(await sandbox.call('listCyberPolicies', alex, { params: { cid_ext: CUST_A }, query: { [QUERY.sortOrder]: 'newest' } }), 400, MESSAGE.fieldRule(QUERY.sortOrder, RULE.sortOrder));
  });

  it('401 without a token', async () => {
    expectError(await sandbox.call('listCyberPolicies', null, { params: { cid_ext: CUST_A } }), 401, MESSAGE.tokenUnusable);
  });
});

describe('GET cyber view', () => {
  it('shows every group and agrees with the list', async () => {
    for (const item of (await list(alex, CUST_B, { [QUERY.pageSize]: 20 })).data) {
      const view = expectBody(await sandbox.call('viewCyberPolicy', alex, { params: { cidr_id: item.cidrId } }), 200, CyberView);
      expect(view.policyDetails).toMatchObject({ cidrId: item.cidrId, policyName: item.policyName, policyStatus: item.policyStatus, customerId: CUST_B });
      expect(view.dates.createdDate).toBe(item.createdDate);
      expect(view.instances.length).toBeGreaterThan(0);
      expect(view.regionSettings.primary.regionCode).not.toBe(view.regionSettings.recovery.regionCode);
      const terminated = view.disasterRecoveryEvents.some((event) => event.type === TERMINATION_EVENT_TYPE);
      expect(terminated).toBe(item.terminationTriggered);
    }
  });

  it("404 for unknown, capacity and other users' ids", async () => {
    const theirs = (await list(jordan, CUST_J)).data[0]?.cidrId as string;
    for (const id of ['sc_1', 'sc_1000001', theirs])
      expectError(await sandbox.call('viewCyberPolicy', alex, { params: { cidr_id: id } }), 404, MESSAGE.policyNotFound(id));
  });
});

describe('POST terminate', () => {
  it('creates the event once (201 with an integer id), then answers 200 with id null', async () => {
    const item = (await all(alex, CUST_A)).find((p) => !p.terminationTriggered) as CyberListItem;
    const first = expectBody(await sandbox.call('terminateCyberEvent', alex, { params: { cidr_id: item.cidrId } }), 201, TerminateCreated);
    expect(first).toEqual({ code: 201, data: { id: expect.any(Number) }, message: MESSAGE.terminationCreated });
    const again = expectBody(await sandbox.call('terminateCyberEvent', alex, { params: { cidr_id: item.cidrId } }), 200, TerminateAlreadyTriggered);
    expect(again).toEqual({ code: 200, data: { id: null }, message: MESSAGE.terminationAlready });
    const view = expectBody(await sandbox.call('viewCyberPolicy', alex, { params: { cidr_id: item.cidrId } }), 200, CyberView);
    const events = view.disasterRecoveryEvents.filter((event) => event.type === TERMINATION_EVENT_TYPE);
    expect(events).toHaveLength(1);
    expect(events[0]?.id).toBe(first.data.id);
    const listed = (await all(alex, CUST_A)).find((p) => p.cidrId === item.cidrId);
    expect(listed?.terminationTriggered).toBe(true);
  });

  it('answers 200 at once for a policy seeded with a termination event', async () => {
    const item = (await all(alex, CUST_A)).find((p) => p.terminationTriggered) as CyberListItem;
    expectBody(await sandbox.call('terminateCyberEvent', alex, { params: { cidr_id: item.cidrId } }), 200, TerminateAlreadyTriggered);
  });

  it('is allowed in every status', async () => {
    const everything = await all(jordan, CUST_J);
    for (const status of CYBER_STATUSES) {
      const item = everything.find((p) => p.policyStatus === status && !p.terminationTriggered);
      if (!item) continue;
      expect((await sandbox.call('terminateCyberEvent', jordan, { params: { cidr_id: item.cidrId } })).status).toBe(201);
    }
  });

  it('happens exactly once under 20 concurrent calls', async () => {
    const item = (await all(alex, CUST_B)).find((p) => !p.terminationTriggered) as CyberListItem;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => sandbox.call('terminateCyberEvent', alex, { params: { cidr_id: item.cidrId } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    const view = expectBody(await sandbox.call('viewCyberPolicy', alex, { params: { cidr_id: item.cidrId } }), 200, CyberView);
    expect(view.disasterRecoveryEvents.filter((event) => event.type === TERMINATION_EVENT_TYPE)).toHaveLength(1);
  });

  it("404 for another user's policy, which stays untouched", async () => {
    const theirs = (await all(jordan, CUST_J)).find((p) => !p.terminationTriggered) as CyberListItem;
    expectError(await sandbox.call('terminateCyberEvent', alex, { params: { cidr_id: theirs.cidrId } }), 404, MESSAGE.policyNotFound(theirs.cidrId));
    expect((await sandbox.call('terminateCyberEvent', jordan, { params: { cidr_id: theirs.cidrId } })).status).toBe(201);
  });

  it('401 without a token', async () => {
    expectError(await sandbox.call('terminateCyberEvent', null, { params: { cidr_id: 'sc_5000001' } }), 401, MESSAGE.tokenUnusable);
  });
});
