import type { Dispatcher } from 'undici';
import type { NetworkStatus, ProxyInUse } from '../../../shared/ipc/network.js';
import { readProxyEnv, redactProxyUrl, type ProxyEnv } from './proxy-env.js';
import { SystemProxyDispatcher } from './system-proxy-dispatcher.js';
import { loadTrustStore, type TrustStore } from './trust-store.js';

/** How this process reaches the network: read once at start, shared by the HTTP agent and the status channel. */
export interface NetworkConfig {
  readonly proxy: ProxyEnv | null;
  readonly trust: TrustStore;
  readonly extraCaCertsFile: string | null;
}

export function readNetworkConfig(env: NodeJS.ProcessEnv = process.env): NetworkConfig {
  return {
    proxy: readProxyEnv(env),
    trust: loadTrustStore(env),
    extraCaCertsFile: env.NODE_EXTRA_CA_CERTS?.trim() || null,
  };
}

/** What the app tells the user about it; never a proxy password. */
export function networkStatus(config: NetworkConfig, proxies: readonly ProxyInUse[] = []): NetworkStatus {
  const proxy = config.proxy?.httpsProxy ?? config.proxy?.httpProxy;
  return {
    proxy: proxy ? redactProxyUrl(proxy) : null,
    noProxy: config.proxy?.noProxy ?? null,
    extraCaCertsFile: config.extraCaCertsFile,
    systemCa: config.trust.systemCa,
    nodeVersion: process.versions.node,
    proxies: [...proxies],
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** NO_PROXY as curl reads it: `*`, or host names matched on whole labels (a leading dot or `*.` is optional). */
function bypassesProxy(hostname: string, noProxy: string | undefined): boolean {
  if (LOOPBACK_HOSTS.has(hostname)) return true;
  return (noProxy ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.replace(/^\*?\./, '').replace(/:\d+$/, '').toLowerCase())
    .some((entry) => entry === '*' || (entry !== '' && (hostname === entry || hostname.endsWith(`.${entry}`))));
}

const UNDICI = { stack: 'undici' } as const;

/**
 * How requests to each base URL go: from the OS settings when the agent is
 * Electron's SystemProxyDispatcher, else from the proxy variables.
 */
export function proxyReporter(config: NetworkConfig, agent: Dispatcher): (baseUrl: string) => Promise<ProxyInUse> {
  return async (baseUrl) => {
    if (agent instanceof SystemProxyDispatcher) {
      const route = await agent.routeFor(baseUrl);
      if (route.kind === 'net') return { baseUrl, source: 'system', proxy: null, usable: true, route: { stack: 'electron-net', reason: route.reason } };
      if (route.kind === 'unsupported') return { baseUrl, source: 'system', proxy: null, usable: false, note: route.message, route: UNDICI };
      const proxy = route.kind === 'proxy' ? redactProxyUrl(route.url) : null;
      return { baseUrl, source: 'system', proxy, usable: true, ...(route.note ? { note: route.note } : {}), route: UNDICI };
    }
    const url = new URL(baseUrl);
    // As undici's EnvHttpProxyAgent: https URLs fall back to HTTP_PROXY when HTTPS_PROXY is unset.
    const variable = url.protocol === 'https:' ? (config.proxy?.httpsProxy ?? config.proxy?.httpProxy) : config.proxy?.httpProxy;
    if (!variable || bypassesProxy(url.hostname.toLowerCase(), config.proxy?.noProxy)) return { baseUrl, source: 'none', proxy: null, usable: true, route: UNDICI };
    return { baseUrl, source: 'environment', proxy: redactProxyUrl(variable), usable: true, route: UNDICI };
  };
}
