import type { NetworkStatus } from '../../../shared/ipc/models.js';
import { readProxyEnv, redactProxyUrl, type ProxyEnv } from './proxy-env.js';
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
export function networkStatus(config: NetworkConfig): NetworkStatus {
  const proxy = config.proxy?.httpsProxy ?? config.proxy?.httpProxy;
  return {
    proxy: proxy ? redactProxyUrl(proxy) : null,
    noProxy: config.proxy?.noProxy ?? null,
    extraCaCertsFile: config.extraCaCertsFile,
    systemCa: config.trust.systemCa,
    nodeVersion: process.versions.node,
  };
}
