/**
 * Corporate networks: proxy variables, the trust store, and what the app
 * says about them. The proxy test runs a real CONNECT proxy in front of a
 * real HTTP server reachable only through it (its host name does not resolve).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../../electron/services/api-client/errors.js';
import { createHttpAgent } from '../../../electron/services/api-client/http-agent.js';
import { networkStatus, readNetworkConfig } from '../../../electron/services/network/network-config.js';
import { readProxyEnv, redactProxyUrl } from '../../../electron/services/network/proxy-env.js';
import { loadTrustStore } from '../../../electron/services/network/trust-store.js';
import { loopbackServers, tunnellingProxy } from '../../support/loopback-servers.js';

const { listen } = loopbackServers();

describe('proxy variables', () => {
  it('reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY in either case, and nothing when unset', () => {
    expect(readProxyEnv({})).toBeNull();
    expect(readProxyEnv({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '.corp' })).toEqual({
      httpProxy: undefined,
      httpsProxy: 'http://proxy:3128',
      noProxy: '.corp',
    });
    expect(readProxyEnv({ https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2', http_proxy: ' ' })?.httpsProxy).toBe('http://lower:1');
  });

  it('never shows proxy credentials', () => {
    expect(redactProxyUrl('http://alice:s3cret@proxy.corp:3128')).toBe('http://***@proxy.corp:3128');
    expect(redactProxyUrl('http://proxy.corp:3128/')).toBe('http://proxy.corp:3128');
    const status = networkStatus(readNetworkConfig({ HTTPS_PROXY: 'http://alice:s3cret@proxy.corp:3128', NODE_EXTRA_CA_CERTS: '/etc/corp-root.pem' }));
    expect(status).toMatchObject({ proxy: 'http://***@proxy.corp:3128', extraCaCertsFile: '/etc/corp-root.pem' });
    expect(JSON.stringify(status)).not.toContain('s3cret');
  });

  it('sends requests through the proxy, except for NO_PROXY hosts and this computer', async () => {
    const target = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ accountId: 'via-proxy', accountName: 'n', provider: 'AWS', status: 'LINKED', linkedAt: '2025-01-01T00:00:00Z' }]));
    });
    const targetPort = await listen(target);
    // The proxy alone knows where "desk.corp.test" lives.
    const { server: proxy, tunnels } = tunnellingProxy(targetPort);
    const proxyPort = await listen(proxy);
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;

    const viaProxy = new ApiClient({
      baseUrl: `http://desk.corp.test:${targetPort}`,
      dispatcher: createHttpAgent({ network: readNetworkConfig({ HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl }) }),
    });
    const accounts = await viaProxy.call('linkedAccounts', { token: 't' });
    expect(accounts[0]?.accountId).toBe('via-proxy');
    expect(tunnels).toEqual([`desk.corp.test:${targetPort}`]);
    await viaProxy.close();

    // NO_PROXY sends it direct, where the name does not resolve: a DNS message, not a hang.
    const direct = new ApiClient({
      baseUrl: `http://desk.corp.test:${targetPort}`,
      dispatcher: createHttpAgent({ network: readNetworkConfig({ HTTP_PROXY: proxyUrl, NO_PROXY: 'corp.test' }) }),
    });
    const error = await direct.call('linkedAccounts', { token: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).error.message).toMatch(/desk\.corp\.test:\d+ could not be (found|looked up)/);
    await direct.close();

    // The built-in sandbox is on this computer: never through the proxy.
    const local = new ApiClient({
      baseUrl: `http://127.0.0.1:${targetPort}`,
      dispatcher: createHttpAgent({ network: readNetworkConfig({ HTTP_PROXY: proxyUrl }) }),
    });
    await local.call('linkedAccounts', { token: 't' });
    expect(tunnels).toHaveLength(1);
    await local.close();
  });
});

describe('the OS trust store', () => {
  it('is reported unsupported where Node cannot read it (Node before 22.15)', () => {
    expect(loadTrustStore({}, undefined, [])).toEqual({ secureContext: undefined, systemCa: 'unsupported' });
  });

  it('is already on when Node runs with --use-system-ca', () => {
    expect(loadTrustStore({ NODE_OPTIONS: '--max-old-space-size=4096 --use-system-ca' }, undefined, []).systemCa).toBe('on');
    expect(loadTrustStore({}, undefined, ['--use-system-ca']).systemCa).toBe('on');
  });

  it('is off when turned off, or when the OS store cannot be read', () => {
    const asked: string[] = [];
    const unreadable = (kind?: string) => {
      asked.push(kind ?? 'default');
      if (kind === 'system') throw new Error('no OS store');
      return [];
    };
    expect(loadTrustStore({}, unreadable, [])).toEqual({ secureContext: undefined, systemCa: 'off' });
    expect(asked).toEqual(['default', 'system']);
    expect(loadTrustStore({ CAPACITY_DESK_SYSTEM_CA: '0' }, () => [], []).systemCa).toBe('off');
  });

  it('builds one secure context from the real bundled roots plus the OS ones', async () => {
    const tls = await import('node:tls');
    const roots = [...tls.rootCertificates];
    const trust = loadTrustStore({}, (kind) => (kind === 'system' ? roots.slice(0, 3) : roots), []);
    expect(trust.systemCa).toBe('on');
    expect(trust.secureContext).toBeDefined();
  });
});

describe('TLS over real connections', () => {
  /** A self-signed certificate for 127.0.0.1, made for this run only. */
  function selfSigned(): { key: string; cert: string } {
    const dir = mkdtempSync(join(tmpdir(), 'capacity-desk-tls-'));
    try {
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
        '-addext', 'subjectAltName=IP:127.0.0.1',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      ], { stdio: 'ignore' });
      return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('says an untrusted certificate is not trusted, and connects once the trust store holds it', async () => {
    const { key, cert } = selfSigned();
    const server = createHttpsServer({ key, cert }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    const port = await listen(server);
    const baseUrl = `https://127.0.0.1:${port}`;

    const untrusted = new ApiClient({ baseUrl, dispatcher: createHttpAgent({ network: readNetworkConfig({}) }) });
    const error = await untrusted.call('linkedAccounts', { token: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).error).toMatchObject({ kind: 'offline' });
    expect((error as ApiFailure).error.message).toContain(`certificate of 127.0.0.1:${port} is not trusted on this computer`);
    expect((error as ApiFailure).delivery).toBe('not-sent');
    await untrusted.close();

    // What the OS trust store does for a company root: the agent trusts the context it is given.
    const trust = { secureContext: createSecureContext({ ca: [cert] }), systemCa: 'on' as const };
    const trusted = new ApiClient({ baseUrl, dispatcher: createHttpAgent({ network: { proxy: null, trust, extraCaCertsFile: null } }) });
    expect(await trusted.call('linkedAccounts', { token: 't' })).toEqual([]);
    await trusted.close();
    // Making an RSA key is set-up, not the subject: 2.8 s of the unit default 5 s at load 14.
  }, 30_000);
});
