/**
 * Proxies that want a sign-in undici cannot give (NTLM, Negotiate, Kerberos),
 * and SOCKS answers from PAC: in Electron such origins go through Chromium's
 * network stack (`net.fetch`) behind the same undici dispatcher interface.
 *
 * Real here: the proxy (a node:http server answering CONNECT with 407 and
 * `Proxy-Authenticate: NTLM`), the service, undici, the API client. A stand-in
 * here: `net.fetch` itself (Node's undici fetch, with desk.corp.test pointed at
 * this computer), so this proves the decision and the plumbing, NOT Electron's
 * network stack; that is proven by the _electron suite in the workflows
 * (test/electron/proxy-route.spec.ts).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../../electron/services/api-client/errors.js';
import { createHttpAgent } from '../../../electron/services/api-client/http-agent.js';
import type { NetFetch } from '../../../electron/services/network/net-dispatcher.js';
import { proxyReporter, readNetworkConfig } from '../../../electron/services/network/network-config.js';
import { challengeSchemes, routeForChallenge } from '../../../electron/services/network/proxy-challenge.js';
import { proxyChallengeReader } from '../../../electron/services/network/proxy-challenge-probe.js';
import { loopbackServers } from '../../support/loopback-servers.js';

// Registered first, so it runs last: the agents and clients below close before their servers.
const { listen } = loopbackServers();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const ACCOUNT = { accountId: 'via-net', accountName: 'n', provider: 'AWS', status: 'LINKED', linkedAt: '2025-01-01T00:00:00Z' };

/** The service: answers every request and keeps what it was sent. */
async function service(): Promise<{ port: number; received: Array<{ method: string; url: string; body: string; authorization: string | undefined }> }> {
  const received: Array<{ method: string; url: string; body: string; authorization: string | undefined }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', body, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([ACCOUNT]));
    });
  });
  return { port: await listen(server), received };
}

/** A corporate proxy that lets nothing through without the sign-in it names. */
async function challengingProxy(challenge: readonly string[]): Promise<{ port: number; connects: string[] }> {
  const connects: string[] = [];
  const proxy = createServer((_req, res) => {
    res.writeHead(407, { 'proxy-authenticate': [...challenge] });
    res.end();
  });
  proxy.on('connect', (req: IncomingMessage, socket: Socket) => {
    connects.push(req.url ?? '');
    socket.end(`HTTP/1.1 407 Proxy Authentication Required\r\n${challenge.map((value) => `Proxy-Authenticate: ${value}\r\n`).join('')}Content-Length: 0\r\n\r\n`);
  });
  return { port: await listen(proxy), connects };
}

/** Stands in for Electron's net.fetch: desk.corp.test is this computer, as Chromium behind the proxy would reach it. */
function netStandIn(): { fetch: NetFetch; calls: string[] } {
  const calls: string[] = [];
  const agent = new Agent({ connect: { lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) } });
  closers.push(() => agent.close());
  const fetch: NetFetch = async (url, init) => {
    calls.push(`${init.method} ${url}`);
    return (await undiciFetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, dispatcher: agent })) as unknown as Response;
  };
  return { fetch, calls };
}

function apiClient(baseUrl: string, dispatcher: ReturnType<typeof createHttpAgent>): ApiClient {
  const client = new ApiClient({ baseUrl, dispatcher, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 } });
  closers.push(() => client.close());
  return client;
}

describe('the scheme a proxy asks for', () => {
  it('reads scheme names, not their parameters or blobs', () => {
    expect(challengeSchemes('NTLM')).toEqual(['ntlm']);
    expect(challengeSchemes(['Negotiate', 'NTLM'])).toEqual(['negotiate', 'ntlm']);
    expect(challengeSchemes('Basic realm="corp, inc = proxy", charset="UTF-8", Negotiate')).toEqual(['basic', 'negotiate']);
    expect(challengeSchemes('NTLM TlRMTVNTUAACAAAADAAMADAAAAA=')).toEqual(['ntlm']);
    expect(challengeSchemes('Digest realm="x", nonce="a,b", qop="auth"')).toEqual(['digest']);
    expect(challengeSchemes(undefined)).toEqual([]);
    expect(challengeSchemes(['', ' , ', '__proto__'])).toEqual(['__proto__']);
  });

  it('sends NTLM, Negotiate and Kerberos to Chromium\'s stack in Electron, and says why anywhere else', () => {
    for (const scheme of ['ntlm', 'negotiate', 'kerberos']) expect(routeForChallenge('http://p:3128', [scheme], true)).toMatchObject({ kind: 'net' });
    expect(routeForChallenge('http://p:3128', ['basic', 'ntlm'], true)).toEqual({
      kind: 'net',
      reason: "the proxy http://p:3128 asks for NTLM sign-in, which Chromium's network stack answers with your computer sign-in",
    });
    expect(routeForChallenge('http://p:3128', ['negotiate'], false)).toMatchObject({ kind: 'fail', message: expect.stringMatching(/asks for Negotiate sign-in, which only the desktop app can answer/) });
    // Basic needs a user name and password this app does not ask for: HTTPS_PROXY carries them.
    expect(routeForChallenge('http://p:3128', ['basic'], true)).toMatchObject({ kind: 'fail', message: expect.stringMatching(/HTTP 407, Basic\)\. Put the proxy credentials in HTTPS_PROXY/) });
    expect(routeForChallenge('http://p:3128', [], true)).toMatchObject({ kind: 'fail', message: expect.stringMatching(/no scheme it names/) });
    expect(routeForChallenge('http://p:3128', ['constructor'], true)).toMatchObject({ kind: 'fail', message: expect.stringMatching(/HTTP 407, constructor\)/) });
  });

  it('reads the challenge from the proxy with a CONNECT of its own', async () => {
    const proxy = await challengingProxy(['NTLM', 'Negotiate']);
    const read = proxyChallengeReader();
    expect(await read(`http://127.0.0.1:${proxy.port}`, 'https://desk.corp.test')).toEqual(['NTLM', 'Negotiate']);
    expect(proxy.connects).toEqual(['desk.corp.test:443']);
    // A proxy that is not there: no challenge to read.
    expect(await read('http://127.0.0.1:9', 'https://desk.corp.test')).toBeNull();
  });
});

describe('requests behind a proxy that wants the computer sign-in (Electron)', () => {
  it('goes through Chromium\'s network stack once the proxy answers 407 NTLM, sends each request to the service once, and says so', async () => {
    const target = await service();
    const proxy = await challengingProxy(['NTLM']);
    const net = netStandIn();
    const logged: string[] = [];
    const network = readNetworkConfig({});
    const agent = createHttpAgent({ network, resolveProxy: async () => `PROXY 127.0.0.1:${proxy.port}`, net: net.fetch, log: (line) => logged.push(line) });
    closers.push(() => agent.close());
    const baseUrl = `http://desk.corp.test:${target.port}`;

    const accounts = await apiClient(baseUrl, agent).call('linkedAccounts', { token: 'secret-token' });
    expect(accounts[0]?.accountId).toBe('via-net');
    // The refused tunnel, then the probe that read the challenge; nothing reached the service that way.
    expect(proxy.connects).toEqual([`desk.corp.test:${target.port}`, `desk.corp.test:${target.port}`]);
    expect(net.calls).toEqual([`GET ${baseUrl}/external/api/v1/my-linked-accounts`]);
    expect(target.received.map((r) => [r.method, r.authorization])).toEqual([['GET', 'Bearer secret-token']]);
    expect(logged).toEqual([expect.stringContaining(`${baseUrl}: the proxy http://127.0.0.1:${proxy.port} asks for NTLM sign-in`)]);

    // A money-moving POST afterwards goes straight to the net route: the proxy is not tried again, the service gets it once.
    const posted = await request(`${baseUrl}/flexcompute/purchase`, { method: 'POST', body: '{"cidrId":"sc_1"}', headers: { 'content-type': 'application/json' }, dispatcher: agent });
    await posted.body.text();
    expect(posted.statusCode).toBe(200);
    expect(proxy.connects).toHaveLength(2);
    expect(target.received.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual(['{"cidrId":"sc_1"}']);

    expect(await proxyReporter(network, agent)(baseUrl)).toEqual({
      baseUrl,
      source: 'system',
      proxy: null,
      usable: true,
      route: { stack: 'electron-net', reason: `the proxy http://127.0.0.1:${proxy.port} asks for NTLM sign-in, which Chromium's network stack answers with your computer sign-in` },
    });
  });

  it('sends a SOCKS answer from PAC through Chromium\'s network stack, without trying undici', async () => {
    const target = await service();
    const net = netStandIn();
    const agent = createHttpAgent({ network: readNetworkConfig({}), resolveProxy: async () => 'SOCKS5 socks.corp:1080', net: net.fetch });
    closers.push(() => agent.close());
    const baseUrl = `http://desk.corp.test:${target.port}`;
    expect((await apiClient(baseUrl, agent).call('linkedAccounts', { token: 't' }))[0]?.accountId).toBe('via-net');
    expect(net.calls).toEqual([`GET ${baseUrl}/external/api/v1/my-linked-accounts`]);
    expect(await proxyReporter(readNetworkConfig({}), agent)(baseUrl)).toMatchObject({ usable: true, route: { stack: 'electron-net', reason: expect.stringMatching(/SOCKS/) } });
  });

  it('fails as not sent, saying what the proxy wants, where there is no Chromium stack or the proxy wants Basic', async () => {
    const target = await service();
    for (const [challenge, withNet, message] of [
      [['NTLM'], false, /asks for NTLM sign-in, which only the desktop app can answer/],
      [['Basic realm="corp"'], true, /asks for authentication \(HTTP 407, Basic\)\. Put the proxy credentials in HTTPS_PROXY/],
    ] as const) {
      const proxy = await challengingProxy(challenge);
      const net = netStandIn();
      const agent = createHttpAgent({ network: readNetworkConfig({}), resolveProxy: async () => `PROXY 127.0.0.1:${proxy.port}`, ...(withNet ? { net: net.fetch } : {}) });
      closers.push(() => agent.close());
      const error = await apiClient(`http://desk.corp.test:${target.port}`, agent)
        .call('linkedAccounts', { token: 't' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiFailure);
      expect((error as ApiFailure).error.message).toMatch(message);
      expect((error as ApiFailure).delivery).toBe('not-sent');
      expect(net.calls).toEqual([]);
    }
    expect(target.received).toEqual([]);
  });

  it('keeps undici\'s timeouts on the net route: a service that never answers fails the request', async () => {
    const silent = createServer(() => undefined);
    const port = await listen(silent);
    const net = netStandIn();
    const agent = createHttpAgent({ network: readNetworkConfig({}), resolveProxy: async () => 'SOCKS5 s:1080', net: net.fetch, timeouts: { connectMs: 1_000, headersMs: 200, bodyMs: 200 } });
    closers.push(() => agent.close());
    const started = Date.now();
    const error = await request(`http://desk.corp.test:${port}/x`, { dispatcher: agent, headersTimeout: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HeadersTimeoutError' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
