/**
 * The client against a tiny scripted HTTP server, for answers the sandbox
 * never gives: Retry-After, bodies that break the schema in one field, extra
 * fields, statuses outside the contract.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../../electron/services/api-client/errors.js';

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

let server: Server | null = null;
let client: ApiClient | null = null;

afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  client = null;
});

/** Serves the given replies in order (the last one repeats) and records each request. */
async function scripted(replies: Reply[]): Promise<{ client: ApiClient; requests: { method: string; url: string; at: number }[] }> {
  const requests: { method: string; url: string; at: number }[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const reply = replies[Math.min(requests.length, replies.length - 1)] as Reply;
    requests.push({ method: req.method ?? '', url: req.url ?? '', at: Date.now() });
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new ApiClient({
    baseUrl: `http://127.0.0.1:${port}/`,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 2_000 },
  });
  return { client, requests };
}

async function failureOf(promise: Promise<unknown>): Promise<ApiFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiFailure) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const account = { accountId: 'a1', accountName: 'n', provider: 'AWS', status: 'LINKED', linkedAt: '2025-01-01T00:00:00.000Z' };

describe('the client over HTTP', () => {
  it('waits for Retry-After before retrying a GET', async () => {
    const { client, requests } = await scripted([
      { status: 503, body: '', headers: { 'retry-after': '1' } },
      { status: 200, body: [account] },
    ]);
    expect(await client.call('linkedAccounts', { token: 't' })).toEqual([account]);
    expect(requests).toHaveLength(2);
    expect((requests[1]?.at ?? 0) - (requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('does not wait for a Retry-After longer than the policy allows', async () => {
    const { client, requests } = await scripted([{ status: 429, body: '', headers: { 'retry-after': '120' } }]);
    expect((await failureOf(client.call('linkedAccounts', { token: 't' }))).error).toMatchObject({ kind: 'server', status: 429 });
    expect(requests).toHaveLength(1);
  });

  it('lets unknown extra fields through and drops them', async () => {
    const { client } = await scripted([{ status: 200, body: [{ ...account, region: 'eu', tier: 3 }] }]);
    expect(await client.call('linkedAccounts', { token: 't' })).toEqual([account]);
  });

  it('names a missing or mistyped required field in a contract error', async () => {
    const { linkedAt: _dropped, ...withoutDate } = account;
    const { client } = await scripted([
      { status: 200, body: [withoutDate] },
      { status: 200, body: { access_token: 'x', token_type: 'Bearer', expires_in: '3600' } },
    ]);
    const missing = await failureOf(client.call('linkedAccounts', { token: 't' }));
    expect(missing.error).toMatchObject({ kind: 'contract', status: 200, field: '0.linkedAt' });
    expect(missing.error.message).toContain('"0.linkedAt"');
    const mistyped = await failureOf(client.call('signIn', { body: { username: 'u', password: 'p' } }));
    expect(mistyped.error).toMatchObject({ kind: 'contract', field: 'expires_in' });
  });

  it('treats a status outside the contract as a contract error, and an error body that is not JSON by its status', async () => {
    const { client } = await scripted([{ status: 418, body: 'teapot' }, { status: 404, body: '<html>nope</html>' }]);
    expect((await failureOf(client.call('linkedAccounts', { token: 't' }))).error).toMatchObject({ kind: 'contract', status: 418 });
    expect((await failureOf(client.call('linkedAccounts', { token: 't' }))).error).toEqual({
      kind: 'not-found',
      status: 404,
      message: 'Not found.',
    });
  });

  it('builds paths and queries from the endpoint table and sends the bearer token', async () => {
    const { client, requests } = await scripted([{ status: 200, body: { data: [], page: 2, pageSize: 5, total: 0 } }]);
    await client.call('listCyberPolicies', {
      token: 't',
      params: { cid_ext: 'CUST 1/2' },
      query: { page: 2, pageSize: 5, status: undefined, policyName: '' },
    });
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/external/api/v1/policies/cyber/CUST%201%2F2/customer?page=2&pageSize=5' });
  });

  it('reports a refused connection as offline without retrying', async () => {
    const { client } = await scripted([{ status: 200, body: [] }]);
    const port = (server?.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    const error = await failureOf(client.call('linkedAccounts', { token: 't' }));
    expect(error.error.kind).toBe('offline');
    expect(error.error.message).toContain(`127.0.0.1:${port} refused the connection`);
    expect(error.delivery).toBe('not-sent');
  });
});
