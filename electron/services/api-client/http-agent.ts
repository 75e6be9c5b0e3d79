import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { NetworkConfig } from '../network/network-config.js';
import type { NetFetch } from '../network/net-dispatcher.js';
import { SystemProxyDispatcher, type ResolveProxy } from '../network/system-proxy-dispatcher.js';

/**
 * Every timeout set on purpose, because a person is waiting on each request:
 * - connect: a TCP+TLS handshake that takes 10 s is not going to finish;
 * - headers: the service's slowest documented work (search, a 100-row page)
 *   answers in well under a second, so 30 s means it is stuck, and a money
 *   action is then re-checked rather than left hanging;
 * - body: the gap allowed between two chunks of an answer, not its total time;
 * - total: the whole call, retries and every byte of the answer included, so a
 *   server that trickles a byte at a time cannot keep a read (or a money
 *   action's lock) pending past it; a money action that reaches it is settled
 *   by reading the policy back.
 * The dispatcher never retries by itself: no retry interceptor is composed in,
 * so the only retries are the client's own, for GET only.
 */
export const DEFAULT_TIMEOUTS = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  totalMs: 90_000,
} as const;

export interface AgentTimeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
  /** The whole call's deadline (the client's, not the agent's); DEFAULT_TIMEOUTS.totalMs when absent. */
  readonly totalMs?: number | undefined;
}

export interface HttpAgentOptions {
  readonly timeouts?: AgentTimeouts;
  /** Proxy and trust settings; none = direct, Node's default trust. */
  readonly network?: NetworkConfig;
  /**
   * Electron's resolver of the OS proxy settings (manual, PAC, WPAD). Used
   * when no proxy variable is set: HTTPS_PROXY / HTTP_PROXY, when set, are an
   * explicit choice and win. The browser host has none and uses the variables.
   */
  readonly resolveProxy?: ResolveProxy | undefined;
  /** Told when the OS proxy settings could not be had and what was done instead. */
  readonly log?: ((line: string) => void) | undefined;
  /** Electron's `net.fetch`: the route for proxies undici cannot pass (network/proxy-challenge.ts). */
  readonly net?: NetFetch | undefined;
}

/** Keep-alive shorter than the sandbox's and most servers' 5 s, so a pooled socket is never reused as it closes. */
const KEEP_ALIVE_MS = 4_000;
const LOOPBACK_NO_PROXY = ['localhost', '127.0.0.1', '[::1]'];
/** Per origin: enough for the bulk fetch's concurrency plus the user's own clicks. */
const CONNECTIONS_PER_ORIGIN = 16;

/** The app's one connection pool; behind a proxy when HTTPS_PROXY / HTTP_PROXY are set, or as the OS settings say in Electron. */
export function createHttpAgent(options: HttpAgentOptions = {}): Dispatcher {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const secureContext = options.network?.trust.secureContext;
  const tlsOptions = { timeout: timeouts.connectMs, ...(secureContext ? { secureContext } : {}) };
  const common = {
    connect: tlsOptions,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: KEEP_ALIVE_MS,
    connections: CONNECTIONS_PER_ORIGIN,
  };
  const proxy = options.network?.proxy;
  if (!proxy && options.resolveProxy) {
    return new SystemProxyDispatcher({ resolveProxy: options.resolveProxy, agentOptions: common, tls: tlsOptions, net: options.net, ...(options.log ? { log: options.log } : {}) });
  }
  if (!proxy) return new Agent(common);
  return new EnvHttpProxyAgent({
    ...common,
    ...(proxy.httpProxy ? { httpProxy: proxy.httpProxy } : {}),
    ...(proxy.httpsProxy ? { httpsProxy: proxy.httpsProxy } : {}),
    // The built-in sandbox runs on this computer: never send it through the proxy.
    noProxy: [proxy.noProxy, ...LOOPBACK_NO_PROXY].filter(Boolean).join(','),
    // Through a tunnel, the target's TLS and the proxy's own TLS are set apart.
    requestTls: tlsOptions,
    proxyTls: tlsOptions,
  });
}
