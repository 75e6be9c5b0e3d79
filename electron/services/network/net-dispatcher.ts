import { Dispatcher, errors } from 'undici';

/**
 * Electron's `net.fetch` (Chromium's network stack: the OS proxy, PAC, SOCKS
 * and NTLM/Negotiate/Kerberos proxy sign-in), injected so this stays
 * Electron-free. The shell passes electron/main/net-fetch.ts.
 */
export type NetFetch = (url: string, init: { method: string; headers: Record<string, string>; body: string | Uint8Array | null; signal: AbortSignal }) => Promise<Response>;

/** Set by the connection, not by the caller: Chromium refuses or rewrites them. */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-authorization', 'proxy-connection', 'te', 'trailer']);

/** The undici handler this dispatcher drives (the one `request()` passes). */
interface LegacyHandler {
  onConnect?(abort: (reason?: Error) => void): void;
  onHeaders?(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: Buffer[] | null): void;
  onError?(error: Error): void;
}

/**
 * An undici Dispatcher that sends each request through Electron's network
 * stack: the API client keeps its one interface (undici's `request` with a
 * dispatcher), only the route changes. Honours the caller's abort and
 * undici's headers and body timeouts.
 */
export class NetDispatcher extends Dispatcher {
  readonly #fetch: NetFetch;
  readonly #controllers = new Set<AbortController>();

  constructor(fetch: NetFetch) {
    super();
    this.#fetch = fetch;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    void this.#send(options, handler as LegacyHandler);
    return true;
  }

  async #send(options: Dispatcher.DispatchOptions, handler: LegacyHandler): Promise<void> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    let failed = false;
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      controller.abort(error);
      handler.onError?.(error);
    };
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number | null | undefined, error: () => Error): void => {
      clearTimeout(timer);
      if (ms) timer = setTimeout(() => fail(error()), ms);
    };
    try {
      handler.onConnect?.((reason) => fail(reason ?? new errors.RequestAbortedError()));
      if (failed) return;
      const url = new URL(options.path, String(options.origin)).toString();
      arm(options.headersTimeout, () => new errors.HeadersTimeoutError());
      const response = await this.#fetch(url, { method: options.method, headers: plainHeaders(options.headers), body: bodyOf(options.body), signal: controller.signal });
      if (failed) return;
      const raw: Buffer[] = [];
      response.headers.forEach((value, name) => raw.push(Buffer.from(name), Buffer.from(value)));
      let resumed: (() => void) | null = null;
      const resume = (): void => resumed?.();
      arm(options.bodyTimeout, () => new errors.BodyTimeoutError());
      if (handler.onHeaders?.(response.status, raw, resume, response.statusText) === false) await new Promise<void>((go) => (resumed = go));
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          if (failed) return;
          arm(options.bodyTimeout, () => new errors.BodyTimeoutError());
          if (handler.onData?.(Buffer.from(chunk)) === false) await new Promise<void>((go) => (resumed = go));
        }
      }
      clearTimeout(timer);
      if (!failed) handler.onComplete?.([]);
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
  }

  override async close(): Promise<void> {
    // Chromium owns the connections; nothing of ours stays open once requests end.
  }

  override async destroy(): Promise<void> {
    for (const controller of this.#controllers) controller.abort(new errors.ClientDestroyedError());
  }
}

function plainHeaders(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null || CONNECTION_HEADERS.has(name.toLowerCase())) return;
    out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  else if (headers && typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value);
  else if (headers) for (const [name, value] of Object.entries(headers)) add(name, value);
  return out;
}

/** The API client sends strings (JSON) or nothing; anything else is refused rather than half-sent. */
function bodyOf(body: Dispatcher.DispatchOptions['body']): string | Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new errors.InvalidArgumentError('Only string or byte bodies can go through the network stack of Electron.');
}
