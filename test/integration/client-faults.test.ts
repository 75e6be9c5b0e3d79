/**
 * The client under the sandbox's fault injection, counting requests on the
 * sandbox's side: timeouts, bursts of 5xx, dropped connections and broken
 * JSON give the right typed error, GETs are retried only where safe, and a
 * POST or PUT is never sent twice.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../electron/services/api-client/errors.js';
import { API_PREFIX } from '../../shared/api/contract-choices.js';
import type { EndpointName } from '../../shared/api/endpoints.js';
import { FAST_RETRY, startClientSandbox, type ClientSandbox } from '../unit/api-client/sandbox-fixture.js';

let env: ClientSandbox;
let token: string;

beforeAll(async () => {
  env = await startClientSandbox();
  token = await env.signIn();
});
afterAll(() => env.close());
beforeEach(() => env.resetStats());
afterEach(() => env.clearFaults());

async function failure<N extends EndpointName>(name: N, options: CallOptions<N>): Promise<ApiFailure> {
  try {
    await env.client.call(name, options);
  } catch (error) {
    if (error instanceof ApiFailure) return error;
    throw error;
  }
  throw new Error(`${name} succeeded but was expected to fail`);
}

const LINKED = `${API_PREFIX}/my-linked-accounts`;

describe('timeouts', () => {
  it('gives a timeout when the answer is slower than the headers timeout, and does not retry it', async () => {
    await env.addFault({ pathPrefix: LINKED, latencyMs: 1_500 });
    const started = Date.now();
    const error = await failure('linkedAccounts', { token });
    expect(error.error.kind).toBe('timeout');
    expect(error.delivery).toBe('unknown');
    expect(Date.now() - started).toBeLessThan(1_400);
    expect((await env.stats()).linkedAccounts).toBe(1);
  });

  it('honours a per-call deadline and a per-call cancel', async () => {
    await env.addFault({ pathPrefix: LINKED, latencyMs: 300 });
    expect((await failure('linkedAccounts', { token, timeoutMs: 80 })).error.kind).toBe('timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const cancelled = await failure('linkedAccounts', { token, signal: controller.signal });
    expect(cancelled.error).toEqual({ kind: 'cancelled', message: 'Cancelled.' });
  });
});

describe('GET retries', () => {
  it.each([429, 502, 503, 504])('retries a burst of %i and then succeeds', async (status) => {
    await env.addFault({ pathPrefix: LINKED, errorRate: 1, errorStatus: status, errorCount: 2 });
    const accounts = await env.client.call('linkedAccounts', { token });
    expect(accounts.length).toBeGreaterThan(0);
    expect((await env.stats()).linkedAccounts).toBe(3);
  });

  it('gives up after maxAttempts with a server error', async () => {
    await env.addFault({ pathPrefix: LINKED, errorRate: 1, errorStatus: 503 });
    const error = await failure('linkedAccounts', { token });
    expect(error.error).toMatchObject({ kind: 'server', status: 503 });
    expect((await env.stats()).linkedAccounts).toBe(FAST_RETRY.maxAttempts);
  });

  it('does not retry a 500: the service failed, it is not busy', async () => {
    await env.addFault({ pathPrefix: LINKED, errorRate: 1, errorStatus: 500, errorCount: 1 });
    expect((await failure('linkedAccounts', { token })).error).toMatchObject({ kind: 'server', status: 500 });
    expect((await env.stats()).linkedAccounts).toBe(1);
  });

  it('retries a dropped connection, and reports offline when every attempt drops', async () => {
    await env.addFault({ pathPrefix: LINKED, dropRate: 1, dropCount: 1 });
    expect((await env.client.call('linkedAccounts', { token })).length).toBeGreaterThan(0);
    expect((await env.stats()).linkedAccounts).toBe(2);

    await env.clearFaults();
    await env.resetStats();
    await env.addFault({ pathPrefix: LINKED, dropRate: 1 });
    const error = await failure('linkedAccounts', { token });
    expect(error.error.kind).toBe('offline');
    expect(error.error.message).toContain('connection');
    expect((await env.stats()).linkedAccounts).toBe(FAST_RETRY.maxAttempts);
  });
});

describe('POST and PUT are never retried', () => {
  it.each([503, 502, 429])('sends a cancel once on a %i', async (status) => {
    await env.addFault({ method: 'POST', errorRate: 1, errorStatus: status });
    const error = await failure('cancelCapacity', { token, body: { cidrId: 'sc_1' } });
    expect(error.error).toMatchObject({ kind: 'server', status });
    expect((await env.stats()).cancelCapacity).toBe(1);
  });

  it('sends a purchase once when the connection drops, and says it may have happened', async () => {
    await env.addFault({ method: 'POST', dropRate: 1 });
    const error = await failure('purchaseCapacity', { token, body: { cidrId: 'sc_1' } });
    expect(error.error.kind).toBe('offline');
    expect(error.delivery).toBe('unknown');
    expect((await env.stats()).purchaseCapacity).toBe(1);
  });

  it('sends a configure (PUT) once on a 503 and on a drop', async () => {
    await env.addFault({ method: 'PUT', errorRate: 1, errorStatus: 503, errorCount: 1 });
    expect((await failure('configureCapacity', { token, body: { cidrId: 'sc_1', vpc: 'vpc-1' } })).error.status).toBe(503);
    await env.clearFaults();
    await env.addFault({ method: 'PUT', dropRate: 1, dropCount: 1 });
    expect((await failure('setAutoRenewal', { token, body: { cidrId: 'sc_1', autoRenewalEnabled: false } })).error.kind).toBe('offline');
    const stats = await env.stats();
    expect(stats.configureCapacity).toBe(1);
    expect(stats.setAutoRenewal).toBe(1);
  });

  it('sends a terminate once when it times out', async () => {
    await env.addFault({ method: 'POST', latencyMs: 1_500 });
    const error = await failure('terminateCyberEvent', { token, params: { cidr_id: 'sc_5000001' } });
    expect(error.error.kind).toBe('timeout');
    expect((await env.stats()).terminateCyberEvent).toBe(1);
  });
});

describe('answers that cannot be read', () => {
  it('gives a contract error for broken JSON and does not retry it', async () => {
    await env.addFault({ pathPrefix: LINKED, malformedRate: 1, malformedCount: 1 });
    const error = await failure('linkedAccounts', { token });
    expect(error.error).toEqual({ kind: 'contract', status: 200, message: 'The service answered with a body that is not JSON.' });
    expect((await env.stats()).linkedAccounts).toBe(1);
  });
});
