import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacityPage, type CapacityPolicy } from '../../shared/api/capacity.js';
import { CAPACITY_STATUSES, MESSAGE, PAGING, QUERY, RULE } from '../../shared/api/contract-choices.js';
import { ALEX, JORDAN, Sandbox, expectBody, expectError } from './helpers.js';

let sandbox: Sandbox;
let alexToken: string;
let jordanToken: string;

beforeAll(async () => {
  sandbox = await Sandbox.start({ seed: 7, scale: 300 });
  alexToken = await sandbox.signIn(ALEX);
  jordanToken = await sandbox.signIn(JORDAN);
});
afterAll(() => sandbox.close());

async function page(token: string, query: Record<string, string | number>) {
  return expectBody(await sandbox.call('listCapacities', token, { query }), 200, CapacityPage);
}

async function everything(token: string, query: Record<string, string | number> = {}): Promise<CapacityPolicy[]> {
  const all: CapacityPolicy[] = [];
  for (let n = 1; ; n++) {
    const result = await page(token, { ...query, [QUERY.page]: n, [QUERY.pageSize]: PAGING.maxPageSize });
    all.push(...result.data);
    if (result.data.length < PAGING.maxPageSize) {
      expect(all.length).toBe(result.total);
      return all;
    }
  }
}

const ms = (policy: CapacityPolicy) => Date.parse(policy.createdDate);

describe('GET capacities', () => {
  it('defaults to page 1, 10 per page, newest first', async () => {
    const result = await page(alexToken, {});
    expect(result.page).toBe(PAGING.defaultPage);
    expect(result.pageSize).toBe(PAGING.defaultPageSize);
    expect(result.data).toHaveLength(PAGING.defaultPageSize);
    const times = result.data.map(ms);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('pages add up: every policy exactly once, total constant, desc is asc reversed', async () => {
    const desc = await everything(alexToken);
    const asc = await everything(alexToken, { [QUERY.sortOrder]: 'asc' });
    expect(desc.length).toBeGreaterThan(100);
    expect(new Set(desc.map((p) => p.cidrId)).size).toBe(desc.length);
    expect(asc.map((p) => p.cidrId)).toEqual([...desc].reverse().map((p) => p.cidrId));
    for (let i = 1; i < asc.length; i++) expect(ms(asc[i] as CapacityPolicy)).toBeGreaterThanOrEqual(ms(asc[i - 1] as CapacityPolicy));
    // Page n of size s holds items (n-1)*s .. n*s-1.
    const third = await page(alexToken, { [QUERY.page]: 3, [QUERY.pageSize]: 7 });
    expect(third.data.map((p) => p.cidrId)).toEqual(desc.slice(14, 21).map((p) => p.cidrId));
    expect(third.total).toBe(desc.length);
    const lastPage = Math.ceil(desc.length / 7);
    const last = await page(alexToken, { [QUERY.page]: lastPage, [QUERY.pageSize]: 7 });
    expect(last.data).toHaveLength(desc.length - (lastPage - 1) * 7);
  });

  it('a page past the end is empty with the true total', async () => {
    const result = await page(alexToken, { [QUERY.page]: 999, [QUERY.pageSize]: 50 });
    expect(result.data).toEqual([]);
    expect(result.page).toBe(999);
    expect(result.total).toBe((await page(alexToken, {})).total);
  });

  it('each status filter is the matching subset, in order, for both users', async () => {
    for (const token of [alexToken, jordanToken]) {
      const all = await everything(token, { [QUERY.sortOrder]: 'asc' });
      let sum = 0;
      for (const status of CAPACITY_STATUSES) {
        const filtered = await everything(token, { [QUERY.status]: status, [QUERY.sortOrder]: 'asc' });
        expect(filtered.length, status).toBeGreaterThan(0);
        expect(filtered.map((p) => p.cidrId)).toEqual(all.filter((p) => p.policyStatus === status).map((p) => p.cidrId));
        sum += filtered.length;
      }
      expect(sum).toBe(all.length);
    }
  });

  it('is scoped to the signed-in user', async () => {
    const alex = new Set((await everything(alexToken)).map((p) => p.cidrId));
    const jordan = await everything(jordanToken);
    expect(jordan.length).toBeGreaterThan(0);
    for (const policy of jordan) expect(alex.has(policy.cidrId)).toBe(false);
    const jordanAccounts = new Set(JORDAN.linkedAccounts.map((a) => a.accountName));
    for (const policy of jordan) expect(jordanAccounts.has(policy.cspAccountName)).toBe(true);
  });

  it('large pages stay intact when many are in flight at once (output buffers are reused)', async () => {
    const queries = Array.from({ length: 24 }, (_, i) => ({
      [QUERY.page]: 1 + (i % 2),
      [QUERY.pageSize]: 100 - i,
      [QUERY.sortOrder]: i % 3 ? 'asc' : 'desc',
    }));
    const expected: string[] = [];
    for (const query of queries) expected.push((await sandbox.call('listCapacities', alexToken, { query })).text);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(queries.map((query) => sandbox.call('listCapacities', alexToken, { query })));
      expect(answers.map((a) => a.text)).toEqual(expected);
    }
  });

  it('ids are sc_ and digits', async () => {
    for (const policy of (await page(alexToken, { [QUERY.pageSize]: 100 })).data) expect(policy.cidrId).toMatch(/^sc_\d+$/);
  });

  it('an empty status means no filter', async () => {
    expect((await page(alexToken, { [QUERY.status]: '' })).total).toBe((await page(alexToken, {})).total);
  });

  it.each(['active', 'UNKNOWN', 'EXPIRED '])('404 for the unknown status %j', async (status) => {
    expectError(await sandbox.call('listCapacities', alexToken, { query: { [QUERY.status]: status } }), 404, MESSAGE.statusNotFound(status));
  });

  it.each([
    [QUERY.page, '0', RULE.page],
    [QUERY.page, '-1', RULE.page],
    [QUERY.page, 'x', RULE.page],
    [QUERY.page, '1.5', RULE.page],
    [QUERY.page, '', RULE.page],
    [QUERY.pageSize, '0', RULE.pageSize],
    [QUERY.pageSize, '101', RULE.pageSize],
    [QUERY.pageSize, 'ten', RULE.pageSize],
    [QUERY.sortOrder, 'up', RULE.sortOrder],
    [QUERY.sortOrder, 'DESC', RULE.sortOrder],
  ])('400 for %s=%j', async (param, value, rule) => {
    expectError(await sandbox.call('listCapacities', alexToken, { query: { [param]: value } }), 400, MESSAGE.fieldRule(param, rule));
  });

  it('401 without a token', async () => {
    expectError(await sandbox.call('listCapacities', null), 401, MESSAGE.tokenUnusable);
  });
});
