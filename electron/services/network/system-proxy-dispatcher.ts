import { Agent, Dispatcher, ProxyAgent } from 'undici';
import { NetDispatcher, type NetFetch } from './net-dispatcher.js';
import { parsePacAnswer, PROXY_UNUSABLE_CODE, type ProxyDecision } from './pac-answer.js';
import { challengeSchemes, routeForChallenge } from './proxy-challenge.js';
import { proxyChallengeReader, type ReadProxyChallenge } from './proxy-challenge-probe.js';
import { redactProxyUrl } from './proxy-env.js';

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
  /**
   * Electron's `net.fetch` (the desktop app only): origins whose proxy wants a
   * sign-in undici cannot give (NTLM, Negotiate, Kerberos) or that the settings
   * send through SOCKS go through Chromium's network stack instead.
   */
  readonly net?: NetFetch | undefined;
  /** Reads a proxy's 407 challenge; tests pass their own timeout. */
  readonly readChallenge?: ReadProxyChallenge;
}

/** How one origin's requests go: the OS settings' decision, or Chromium's network stack and why. */
export type ProxyRoute = ProxyDecision | { readonly kind: 'net'; readonly reason: string };

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
  /** Origins sent through Chromium's network stack because their proxy asked for a sign-in only it can give. */
  readonly #challenged = new Map<string, string>();
  readonly #challenges = new Map<string, Promise<ProxyRoute>>();
  readonly #net: NetDispatcher | null;
  readonly #readChallenge: ReadProxyChallenge;

  constructor(options: SystemProxyOptions) {
    super();
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#net = options.net ? new NetDispatcher(options.net) : null;
    this.#readChallenge = options.readChallenge ?? proxyChallengeReader(options.tls);
  }

  /** The route this URL's origin takes now: undici (direct or through a proxy) or Chromium's network stack. */
  async routeFor(url: string): Promise<ProxyRoute> {
    const origin = new URL(url).origin;
    const challenged = this.#challenged.get(origin);
    if (challenged && this.#net) return { kind: 'net', reason: challenged };
    const decision = await this.decisionFor(origin);
    if (decision.kind === 'unsupported' && decision.socks && this.#net) {
      return { kind: 'net', reason: 'the system proxy settings name a SOCKS proxy, which Chromium\'s network stack speaks' };
    }
    return decision;
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
    void this.routeFor(origin).then((route) => {
      if (route.kind === 'net' && this.#net) {
        this.#net.dispatch(options, handler);
        return;
      }
      const decision: ProxyDecision = route.kind === 'net' ? { kind: 'unsupported', message: route.reason } : route;
      let pool: Dispatcher;
      try {
        pool = this.#pool(decision);
      } catch (error) {
        // e.g. a proxy address undici refuses: fail this request with the reason, never leave it hanging.
        const reason = error instanceof Error ? error.message : String(error);
        pool = this.#pool({ kind: 'unsupported', message: `The system proxy could not be used (${reason}).` });
      }
      pool.dispatch(options, decision.kind === 'proxy' ? this.#watchForChallenge(origin, decision.url, options, handler) : handler);
    });
    return true;
  }

  /**
   * A tunnel the proxy refused with 407 sent nothing to the service, so the
   * request may go again, once, by the route the challenge calls for. Only
   * the callback-style handler that `request()` passes is watched.
   */
  #watchForChallenge(origin: string, proxy: string, options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
    const legacy = handler as { onError?: (error: Error) => void; onRequestStart?: unknown };
    if (typeof legacy.onError !== 'function' || legacy.onRequestStart !== undefined) return handler;
    const onError = legacy.onError.bind(handler);
    const watched: Record<string, unknown> = {};
    for (const [key, value] of methodsOf(handler)) watched[key] = value;
    watched.onError = (error: Error) => {
      if (!isTunnelAuthRefusal(error)) {
        onError(error);
        return;
      }
      void this.#challengeRoute(origin, proxy).then((route) => {
        if (route.kind === 'net' && this.#net) this.#net.dispatch(options, handler);
        else if (route.kind === 'unsupported') onError(Object.assign(new Error(route.message), { code: PROXY_UNUSABLE_CODE, cause: error }));
        else onError(error);
      });
    };
    return watched as Dispatcher.DispatchHandler;
  }

  /** What the proxy's 407 asks for, read once per origin and proxy at a time. */
  #challengeRoute(origin: string, proxy: string): Promise<ProxyRoute> {
    const key = `${origin} ${proxy}`;
    let pending = this.#challenges.get(key);
    if (!pending) {
      pending = this.#readChallenge(proxy, origin)
        .then((header): ProxyRoute => {
          // The proxy answered otherwise this time: report the first refusal as it came.
          if (header === null) return { kind: 'proxy', url: proxy };
          const route = routeForChallenge(redactProxyUrl(proxy), challengeSchemes(header), this.#net !== null);
          if (route.kind === 'fail') return { kind: 'unsupported', message: route.message };
          this.#challenged.set(origin, route.reason);
          this.#options.log?.(`${origin}: ${route.reason}; its requests now go through Chromium's network stack`);
          return { kind: 'net', reason: route.reason };
        })
        .finally(() => this.#challenges.delete(key));
      this.#challenges.set(key, pending);
    }
    return pending;
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
    await Promise.all([...this.#pools.values(), ...(this.#net ? [this.#net] : [])].map((pool) => pool.close()));
  }

  override async destroy(): Promise<void> {
    await Promise.all([...this.#pools.values(), ...(this.#net ? [this.#net] : [])].map((pool) => pool.destroy()));
  }
}

/** undici reports a tunnel the proxy refused as "Proxy response (407) !== 200 when HTTP Tunneling" (proxy-agent.js). */
function isTunnelAuthRefusal(error: Error): boolean {
  return /^Proxy response \(407\)/.test(error.message);
}

/** The handler's callbacks, bound to it, so a watcher can stand in for it without copying its state. */
function methodsOf(handler: object): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (let at: object | null = handler; at && at !== Object.prototype; at = Object.getPrototypeOf(at) as object | null) {
    for (const key of Object.getOwnPropertyNames(at)) {
      const value = (handler as Record<string, unknown>)[key];
      if (key !== 'constructor' && /^on[A-Z]/.test(key) && typeof value === 'function' && !out.some(([seen]) => seen === key)) out.push([key, (value as (...args: unknown[]) => unknown).bind(handler)]);
    }
  }
  return out;
}
