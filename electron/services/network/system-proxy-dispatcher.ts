import { Agent, Dispatcher, ProxyAgent } from 'undici';
import { parsePacAnswer, PROXY_UNUSABLE_CODE, type ProxyDecision } from './pac-answer.js';

/** Electron's `session.resolveProxy(url)`, injected so this stays Electron-free. */
export type ResolveProxy = (url: string) => Promise<string>;

export interface SystemProxyOptions {
  readonly resolveProxy: ResolveProxy;
  /** Options of every pool (timeouts, TLS); the proxy's own TLS uses the same trust. */
  readonly agentOptions: Agent.Options;
  /** TLS options of the target behind a proxy tunnel, and of the proxy itself. */
  readonly tls: NonNullable<ProxyAgent.Options['requestTls']>;
  /** How long one origin's answer is reused: PAC results change when the computer changes networks. */
  readonly refreshMs?: number;
  readonly now?: () => number;
}

const DEFAULT_REFRESH_MS = 5 * 60_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The app's connection pool in Electron: each origin goes the way the OS proxy
 * settings say (asked through Electron's resolver, as Chromium itself does),
 * through one pool per proxy. This computer's own services (the built-in
 * sandbox) are always reached directly.
 */
export class SystemProxyDispatcher extends Dispatcher {
  readonly #options: SystemProxyOptions;
  readonly #decisions = new Map<string, { readonly at: number; readonly decision: Promise<ProxyDecision> }>();
  readonly #pools = new Map<string, Dispatcher>();
  readonly #now: () => number;

  constructor(options: SystemProxyOptions) {
    super();
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** What the OS settings say for this URL's origin (cached for refreshMs). */
  decisionFor(url: string): Promise<ProxyDecision> {
    const origin = new URL(url).origin;
    if (LOOPBACK_HOSTS.has(new URL(origin).hostname)) return Promise.resolve({ kind: 'direct' });
    const cached = this.#decisions.get(origin);
    if (cached && this.#now() - cached.at < (this.#options.refreshMs ?? DEFAULT_REFRESH_MS)) return cached.decision;
    const decision = this.#options.resolveProxy(origin).then(parsePacAnswer, (error: unknown) => ({
      kind: 'direct' as const,
      note: `The system proxy settings could not be read (${error instanceof Error ? error.message : String(error)}); connecting directly.`,
    }));
    this.#decisions.set(origin, { at: this.#now(), decision });
    return decision;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin ?? '');
    // The pool is chosen once the answer is in; the request's own handler then sees every event, errors included.
    void this.decisionFor(origin).then((decision) => {
      let pool: Dispatcher;
      try {
        pool = this.#pool(decision);
      } catch (error) {
        // e.g. a proxy address undici refuses: fail this request with the reason, never leave it hanging.
        const reason = error instanceof Error ? error.message : String(error);
        pool = this.#pool({ kind: 'unsupported', message: `The system proxy could not be used (${reason}).` });
      }
      pool.dispatch(options, handler);
    });
    return true;
  }

  #pool(decision: ProxyDecision): Dispatcher {
    const key = decision.kind === 'proxy' ? decision.url : decision.kind === 'unsupported' ? `unsupported:${decision.message}` : 'direct';
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = this.#create(decision);
      this.#pools.set(key, pool);
    }
    return pool;
  }

  #create(decision: ProxyDecision): Dispatcher {
    const { agentOptions, tls } = this.#options;
    if (decision.kind === 'direct') return new Agent(agentOptions);
    if (decision.kind === 'proxy') return new ProxyAgent({ ...agentOptions, uri: decision.url, requestTls: tls, proxyTls: tls });
    // A pool whose every connection fails with the reason, reported through undici's normal error path.
    return new Agent({
      ...agentOptions,
      connect: (_options, callback) => {
        callback(Object.assign(new Error(decision.message), { code: PROXY_UNUSABLE_CODE }), null);
      },
    });
  }

  override async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close()));
  }

  override async destroy(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.destroy()));
  }
}
