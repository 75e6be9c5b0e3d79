import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CapacityPage } from '../../shared/api/capacity.js';
import { MESSAGE, QUERY } from '../../shared/api/contract-choices.js';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import { ALEX, Sandbox, expectBody, expectError, type Answer } from './helpers.js';

describe('controls off (the default)', () => {
  it('every /sandbox/ path answers the normal 404 envelope', async () => {
    const sandbox = await Sandbox.start({ controls: false });
    try {
      for (const [method, path] of [
        ['POST', '/sandbox/reset'],
        ['GET', '/sandbox/clock'],
        ['POST', '/sandbox/faults'],
        ['GET', '/sandbox/stats'],
      ] as const)
        expectError(await sandbox.raw(method, path), 404, MESSAGE.routeNotFound(method, path));
    } finally {
      await sandbox.close();
    }
  });
});

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await Sandbox.start({ seed: 21, scale: 150 });
  token = await sandbox.signIn(ALEX);
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

const list = () => sandbox.call('listCapacities', token);

describe('POST /sandbox/reset', () => {
  it('undoes changes and can reseed with another seed or scale', async () => {
    const ready = expectBody(await sandbox.call('listCapacities', token, { query: { [QUERY.status]: 'READY_FOR_PURCHASE' } }), 200, CapacityPage);
    const id = ready.data[0]?.cidrId as string;
    await sandbox.call('purchaseCapacity', token, { body: { cidrId: id } });
    const before = (await list()).body;
    let answer = await sandbox.control('POST', '/reset');
    expect(answer.body).toMatchObject({ seed: 21, scale: 150, capacityPolicies: 150 });
    const view = await sandbox.call('describeCapacity', token, { params: { cidr_id: id } });
    expect((view.body as { policyDetails: { policyStatus: string } }).policyDetails.policyStatus).toBe('READY_FOR_PURCHASE');
    answer = await sandbox.control('POST', '/reset', { seed: 22, scale: 40 });
    expect(answer.body).toMatchObject({ seed: 22, scale: 40, capacityPolicies: 40 });
    expect((await list()).body).not.toEqual(before);
    await sandbox.control('POST', '/reset', { seed: 21, scale: 150 });
  });

  it('400 for a bad body', async () => {
    expectError(await sandbox.control('POST', '/reset', { scale: -1 }), 400, /^scale: /);
  });
});

describe('faults', () => {
  it('adds latency', async () => {
    await sandbox.control('POST', '/faults', { latencyMs: 250 });
    const started = performance.now();
    expect((await list()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('holds a request until the rules are cleared, and only the requests it matches', async () => {
    await sandbox.control('POST', '/faults', { method: 'GET', hold: true });
    let answered = false;
    const held = list().then((answer) => {
      answered = true;
      return answer;
    });
    // The held request has arrived (it is counted on arrival), and a request the rule does not match is answered meanwhile.
    await vi.waitFor(async () => expect(((await sandbox.control('GET', '/stats')).body as { listCapacities: number }).listCapacities).toBe(1));
    expect((await sandbox.control('GET', '/faults')).status).toBe(200);
    expect(answered).toBe(false);
    await sandbox.control('DELETE', '/faults');
    expect((await held).status).toBe(200);
  });

  it('injects a burst of errors with the chosen status, then stops', async () => {
    const added = await sandbox.control('POST', '/faults', { errorRate: 1, errorStatus: 503, errorCount: 2 });
    expect(added.status).toBe(201);
    expectError(await list(), 503, /.+/);
    expect(((await list()).body as { error: { message: string } }).error.message).toBe('Service Unavailable');
    expect((await list()).status).toBe(200);
    const rules = (await sandbox.control('GET', '/faults')).body as { rules: { fired: { error: number } }[] };
    expect(rules.rules[0]?.fired.error).toBe(2);
  });

  it('a 500 fault carries the contract text', async () => {
    await sandbox.control('POST', '/faults', { errorRate: 1 });
    expectError(await list(), 500, MESSAGE.unexpected);
  });

  it('an error rate fails about that share of requests, the same way for the same seed', async () => {
    const run = async () => {
      await sandbox.control('DELETE', '/faults');
      await sandbox.control('POST', '/faults', { errorRate: 0.5, seed: 99 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await sandbox.call('linkedAccounts', token)).status);
      return statuses;
    };
    const first = await run();
    const failures = first.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(32);
    expect(await run()).toEqual(first);
  });

  it('drops connections', async () => {
    await sandbox.control('POST', '/faults', { dropRate: 1, dropCount: 1 });
    await expect(list()).rejects.toThrow();
    expect((await list()).status).toBe(200);
  });

  it('sends malformed JSON', async () => {
    await sandbox.control('POST', '/faults', { malformedRate: 1, malformedCount: 1 });
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/json/);
    expect(() => JSON.parse(answer.text) as unknown).toThrow();
    const next = (await list()).text;
    expect(() => JSON.parse(next) as unknown).not.toThrow();
  });

  it('can be scoped to a path prefix and a method', async () => {
    await sandbox.control('POST', '/faults', { pathPrefix: ENDPOINTS.purchaseCapacity.path, method: 'POST', errorRate: 1, errorStatus: 502 });
    expect((await list()).status).toBe(200);
    expectError(await sandbox.call('purchaseCapacity', token, { body: { cidrId: 'sc_1' } }), 502, /.+/);
  });

  it('never touch the controls themselves', async () => {
    await sandbox.control('POST', '/faults', { pathPrefix: '/', errorRate: 1 });
    expect((await sandbox.control('GET', '/clock')).status).toBe(200);
    expect((await sandbox.control('DELETE', '/faults')).body).toEqual({ rules: [] });
    expect((await list()).status).toBe(200);
  });

  it('are cleared by DELETE and by reset', async () => {
    await sandbox.control('POST', '/faults', { errorRate: 1 });
    await sandbox.control('POST', '/reset');
    expect((await list()).status).toBe(200);
    expect((await sandbox.control('GET', '/faults')).body).toEqual({ rules: [], held: 0 });
  });

  it('hold an answer made at once until they are cleared: it shows the state as it was when asked', async () => {
    const firstOf = async (answer: Promise<Answer>) => CapacityPage.parse((await answer).body).data[0]!;
    const before = await firstOf(sandbox.call('listCapacities', token, { query: { pageSize: 1 } }));
    await sandbox.control('POST', '/faults', { pathPrefix: ENDPOINTS.listCapacities.path, holdAnswers: true });
    const asked = firstOf(sandbox.call('listCapacities', token, { query: { pageSize: 1 } }));
    await expect.poll(async () => ((await sandbox.control('GET', '/faults')).body as { held: number }).held).toBe(1);
    // Controls are never held: the policy on the held page is renamed while its answer waits.
    expect((await sandbox.control('POST', '/rename', { cidrId: before.cidrId, policyName: 'renamed while held' })).status).toBe(200);
    expect((await sandbox.control('DELETE', '/faults')).body).toEqual({ rules: [] });
    expect(await asked).toEqual(before);
    expect((await firstOf(sandbox.call('listCapacities', token, { query: { pageSize: 1 } }))).policyName).toBe('renamed while held');
    expect((await sandbox.control('GET', '/faults')).body).toEqual({ rules: [], held: 0 });
  });

  it('400 for a bad rule', async () => {
    expectError(await sandbox.control('POST', '/faults', { errorRate: 2 }), 400, /^errorRate: /);
    expectError(await sandbox.control('POST', '/faults', { errorRat: 1 }), 400, 'errorRat: is not a known field');
    expectError(await sandbox.raw('POST', '/sandbox/faults', { body: '{' }), 400, MESSAGE.bodyUnparsable);
  });
});

describe('stats', () => {
  it('counts requests per endpoint name, and resets', async () => {
    await sandbox.control('POST', '/stats/reset');
    await list();
    await list();
    await sandbox.call('cancelCapacity', token, { body: { cidrId: 'sc_1' } });
    await sandbox.call('purchaseCapacity', null, { body: { cidrId: 'sc_1' } });
    const stats = (await sandbox.control('GET', '/stats')).body as Record<string, number>;
    expect(Object.keys(stats).sort()).toEqual(Object.keys(ENDPOINTS).sort());
    expect(stats).toMatchObject({ listCapacities: 2, cancelCapacity: 1, purchaseCapacity: 1, signIn: 0 });
    expect((await sandbox.control('POST', '/stats/reset')).body).toMatchObject({ listCapacities: 0 });
  });
});

describe('unknown controls', () => {
  it('404 envelope', async () => {
    expectError(await sandbox.control('GET', '/nothing'), 404, MESSAGE.routeNotFound('GET', '/sandbox/nothing'));
  });
});
