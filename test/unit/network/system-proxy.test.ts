/**
 * The OS proxy settings in Electron: an injected resolver stands in for
 * `session.resolveProxy` (Electron cannot run here); the proxy, the service
 * and the requests are real. "desk.corp.test" does not resolve: only the
 * proxy knows where it lives.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../../electron/services/api-client/errors.js';
import { createHttpAgent } from '../../../electron/services/api-client/http-agent.js';
import { proxyReporter, readNetworkConfig } from '../../../electron/services/network/network-config.js';
import { SystemProxyDispatcher } from '../../../electron/services/network/system-proxy-dispatcher.js';
import { loopbackServers, tunnellingProxy } from '../../support/loopback-servers.js';

// Registered first, so it runs last: the clients below close before their servers.
const { listen } = loopbackServers();
const clients: ApiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const ACCOUNT = { accountId: 'via-proxy', accountName: 'n', provider: 'AWS', status: 'LINKED', linkedAt: '2025-01-01T00:00:00Z' };

async function serviceAndProxy(): Promise<{ servicePort: number; proxyPort: number; tunnels: string[]; served: string[] }> {
  const served: string[] = [];
  const service = createServer((req, res) => {
    served.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify([ACCOUNT]));
  });
  const servicePort = await listen(service);
  const { server: proxy, tunnels } = tunnellingProxy(servicePort);
  return { servicePort, proxyPort: await listen(proxy), tunnels, served };
}

function clientFor(baseUrl: string, dispatcher: ReturnType<typeof createHttpAgent>): ApiClient {
  const client = new ApiClient({ baseUrl, dispatcher, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 } });
  clients.push(client);
  return client;
}

describe('OS proxy settings (Electron)', () => {
  it('sends each origin the way the resolver says, through the proxy it names, and reports it per environment', async () => {
    const { servicePort, proxyPort, tunnels } = await serviceAndProxy();
    const asked: string[] = [];
    const network = readNetworkConfig({});
    const agent = createHttpAgent({
      network,
      resolveProxy: async (url) => {
        asked.push(url);
        return `PROXY 127.0.0.1:${proxyPort}; DIRECT`;
      },
    });
    expect(agent).toBeInstanceOf(SystemProxyDispatcher);
    const baseUrl = `http://desk.corp.test:${servicePort}`;
    const accounts = await clientFor(baseUrl, agent).call('linkedAccounts', { token: 't' });
    expect(accounts[0]?.accountId).toBe('via-proxy');
    expect(tunnels).toEqual([`desk.corp.test:${servicePort}`]);
    expect(asked).toEqual([baseUrl]);

    const report = proxyReporter(network, agent);
    expect(await report(baseUrl)).toEqual({ baseUrl, source: 'system', proxy: `http://127.0.0.1:${proxyPort}`, usable: true, route: { stack: 'undici' } });
    // The built-in sandbox is on this computer: direct, and the OS is not even asked.
    expect(await report(`http://127.0.0.1:${servicePort}`)).toEqual({ baseUrl: `http://127.0.0.1:${servicePort}`, source: 'system', proxy: null, usable: true, route: { stack: 'undici' } });
    await clientFor(`http://127.0.0.1:${servicePort}`, agent).call('linkedAccounts', { token: 't' });
    expect(tunnels).toHaveLength(1);
    expect(asked).toEqual([baseUrl]);
  });

  it('lets HTTPS_PROXY win over the OS settings: an explicit choice', async () => {
    const agent = createHttpAgent({ network: readNetworkConfig({ HTTPS_PROXY: 'http://proxy.env:3128' }), resolveProxy: async () => 'DIRECT' });
    expect(agent).not.toBeInstanceOf(SystemProxyDispatcher);
    await agent.close();
  });

  it('fails a request clearly, as not sent, when the settings name only a SOCKS proxy', async () => {
    const { servicePort, served } = await serviceAndProxy();
    const agent = createHttpAgent({ network: readNetworkConfig({}), resolveProxy: async () => 'SOCKS5 127.0.0.1:1080' });
    const baseUrl = `http://desk.corp.test:${servicePort}`;
    const error = await clientFor(baseUrl, agent)
      .call('linkedAccounts', { token: 't' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).error.message).toMatch(/cannot be reached: .*SOCKS5 127\.0\.0\.1:1080 \(SOCKS proxies are not supported\)/);
    expect((error as ApiFailure).delivery).toBe('not-sent');
    expect(served).toEqual([]);
    expect(await proxyReporter(readNetworkConfig({}), agent)(baseUrl)).toMatchObject({ source: 'system', proxy: null, usable: false });
  });

  it('never goes direct when the resolver fails or hangs with no earlier answer: the request fails saying why, and the OS is asked again next time', async () => {
    const { servicePort, tunnels, served } = await serviceAndProxy();
    const logged: string[] = [];
    let calls = 0;
    const agent = new SystemProxyDispatcher({
      resolveProxy: () => {
        calls += 1;
        // A PAC script or WPAD lookup that never answers; then one that throws.
        if (calls === 1) return new Promise<string>(() => undefined);
        if (calls === 2) return Promise.reject(new Error('resolver gone'));
        return Promise.resolve(`PROXY 127.0.0.1:${servicePort}`);
      },
      agentOptions: {},
      tls: {},
      resolveTimeoutMs: 100,
      log: (line) => logged.push(line),
    });
    const baseUrl = `http://desk.corp.test:${servicePort}`;
    const started = Date.now();
    const error = await clientFor(baseUrl, agent)
      .call('linkedAccounts', { token: 't' })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).error.message).toMatch(/did not answer within 0\.1 s.*Nothing was sent/);
    expect((error as ApiFailure).delivery).toBe('not-sent');
    expect([served, tunnels]).toEqual([[], []]);
    expect(logged).toEqual([expect.stringMatching(/did not answer within 0\.1 s for http:\/\/desk\.corp\.test:\d+, and there is no earlier answer/)]);

    expect(await agent.decisionFor(baseUrl)).toMatchObject({ kind: 'unsupported', message: expect.stringContaining('could not be read (resolver gone)') });
    expect(await agent.decisionFor(baseUrl)).toEqual({ kind: 'proxy', url: `http://127.0.0.1:${servicePort}` });
    expect(calls).toBe(3);
    await agent.close();
  });

  it('uses the last answer for the origin when a later question goes unanswered, and says so in the log', async () => {
    const { servicePort, proxyPort, tunnels } = await serviceAndProxy();
    const logged: string[] = [];
    let now = 0;
    let hang = false;
    const agent = new SystemProxyDispatcher({
      resolveProxy: () => (hang ? new Promise<string>(() => undefined) : Promise.resolve(`PROXY 127.0.0.1:${proxyPort}`)),
      agentOptions: {},
      tls: {},
      refreshMs: 1_000,
      now: () => now,
      resolveTimeoutMs: 100,
      log: (line) => logged.push(line),
    });
    const baseUrl = `http://desk.corp.test:${servicePort}`;
    const client = clientFor(baseUrl, agent);
    await client.call('linkedAccounts', { token: 't' });
    now = 5_000;
    hang = true;
    const accounts = await client.call('linkedAccounts', { token: 't' });
    expect(accounts[0]?.accountId).toBe('via-proxy');
    expect(tunnels.length).toBeGreaterThanOrEqual(1);
    expect(await agent.decisionFor(baseUrl)).toEqual({ kind: 'proxy', url: `http://127.0.0.1:${proxyPort}` });
    expect(logged[0]).toMatch(/did not answer within 0\.1 s for http:\/\/desk\.corp\.test:\d+; using their last answer for it \(through http:\/\/127\.0\.0\.1:\d+\)/);
  });
});
