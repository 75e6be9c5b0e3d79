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
  /** How long to wait for the OS's answer: a hung PAC script or WPAD lookup must not stall every request. */
  readonly resolveTimeoutMs?: number;
  /** Told when the answer could not be had and what was done instead (never a secret: origins and proxy addresses). */
  readonly log?: (line: string) => void;
}

const DEFAULT_REFRESH_MS = 5 * 60_000;
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

class ResolveTimeout extends Error {}
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
  /** The last answer the OS gave for each origin, kept past its refresh for when a later question goes unanswered. */
  readonly #lastKnown = new Map<string, ProxyDecision>();
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
    const asked = this.#ask(origin);
    const entry = { at: this.#now(), decision: asked.then((a) => a.decision) };
    // Only answers are reused; without one, the next request asks the OS again.
    void asked.then(({ answered }) => {
      if (!answered && this.#decisions.get(origin) === entry) this.#decisions.delete(origin);
    });
    this.#decisions.set(origin, entry);
    return entry.decision;
  }

  /**
   * Asks the OS, for at most resolveTimeoutMs. Without an answer the request
   * must not go direct: on a network that requires the proxy that leaks it
   * past the proxy, or fails in a confusing way. So the last answer for this
   * origin is used, else the request fails saying why.
   */
  async #ask(origin: string): Promise<{ decision: ProxyDecision; answered: boolean }> {
    const limit = this.#options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ResolveTimeout()), limit);
      timer.unref?.();
    });
    try {
      const decision = parsePacAnswer(await Promise.race([this.#options.resolveProxy(origin), timeout]));
      this.#lastKnown.set(origin, decision);
      return { decision, answered: true };
    } catch (error) {
      const why =
        error instanceof ResolveTimeout
          ? `did not answer within ${Math.round(limit / 100) / 10} s`
          : `could not be read (${error instanceof Error ? error.message : String(error)})`;
      const last = this.#lastKnown.get(origin);
      if (last) {
        const route = last.kind === 'proxy' ? `through ${last.url}` : last.kind === 'direct' ? 'directly' : 'not at all';
        this.#options.log?.(`the system proxy settings ${why} for ${origin}; using their last answer for it (${route})`);
        return { decision: last, answered: false };
      }
      this.#options.log?.(`the system proxy settings ${why} for ${origin}, and there is no earlier answer: requests to it fail until they answer`);
      return {
        answered: false,
        decision: {
          kind: 'unsupported',
          message:
            `The system proxy settings ${why}, so Capacity Desk does not know whether ${origin} must be reached through a proxy. ` +
            'Nothing was sent (going without a proxy your network may require is not safe). Try again in a moment.',
        },
      };
    } finally {
      clearTimeout(timer);
    }
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
