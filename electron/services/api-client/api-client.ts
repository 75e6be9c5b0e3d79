import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ENDPOINTS, buildPath, type EndpointName } from '../../../shared/api/endpoints.js';
import { ApiFailure, cancelledError, classifyNetworkFailure, contractError, errorFromResponse } from './errors.js';
import { DEFAULT_TIMEOUTS, createHttpAgent } from './http-agent.js';
import { DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, isRetryableMethod, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry-policy.js';

type Endpoints = typeof ENDPOINTS;
type Def<N extends EndpointName> = Endpoints[N];

type PathParamsOf<N extends EndpointName> = Def<N>['pathParams'][number];
type BodyOf<N extends EndpointName> = Def<N> extends { body: infer B extends z.ZodType } ? z.input<B> : undefined;
type QueryOf<N extends EndpointName> = Def<N> extends { query: infer Q extends z.ZodType }
  ? { readonly [K in keyof z.input<Q>]?: string | number | undefined }
  : undefined;

/** The parsed success body of an endpoint (a union where several statuses succeed). */
export type ResponseOf<N extends EndpointName> = {
  [S in keyof Def<N>['responses']]: Def<N>['responses'][S] extends z.ZodType ? z.output<Def<N>['responses'][S]> : never;
}[keyof Def<N>['responses']];

export type CallOptions<N extends EndpointName> = {
  readonly token?: string;
  /** Cancels the call (and any wait before a retry). */
  readonly signal?: AbortSignal;
  /** A deadline for the whole call, retries included; on top of the agent's own timeouts. */
  readonly timeoutMs?: number;
} & ([PathParamsOf<N>] extends [never] ? { readonly params?: undefined } : { readonly params: Record<PathParamsOf<N>, string> }) &
  (BodyOf<N> extends undefined ? { readonly body?: undefined } : { readonly body: BodyOf<N> }) &
  (QueryOf<N> extends undefined ? { readonly query?: undefined } : { readonly query: QueryOf<N> });

export interface RequestTimeouts {
  /** Longest wait for the status line and headers of an answer. */
  readonly headersMs: number;
  /** Longest gap between two chunks of an answer's body. */
  readonly bodyMs: number;
}

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly dispatcher?: Dispatcher;
  readonly timeouts?: RequestTimeouts;
  readonly retry?: RetryPolicy;
  /** Jitter source; tests pin it. */
  readonly random?: () => number;
}

type Attempt = { kind: 'answer'; status: number; text: string; retryAfterMs: number | null } | { kind: 'failed'; error: unknown };

/**
 * The only code that talks to the service. Requests are built from the shared
 * endpoint table; answers are parsed with its schemas; every failure becomes an
 * ApiFailure (an AppFailure) carrying a typed error. GETs are retried on
 * "try later" answers and lost connections; nothing else is ever sent twice.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeouts: RequestTimeouts;
  readonly #retry: RetryPolicy;
  readonly #random: () => number;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createHttpAgent();
    this.#timeouts = options.timeouts ?? { headersMs: DEFAULT_TIMEOUTS.headersMs, bodyMs: DEFAULT_TIMEOUTS.bodyMs };
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#random = options.random ?? Math.random;
  }

  async call<N extends EndpointName>(name: N, options: CallOptions<N>): Promise<ResponseOf<N>> {
    const def: Def<N> = ENDPOINTS[name];
    const url = new URL(this.baseUrl + buildPath(def.path, (options.params ?? {}) as Record<string, string>));
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const signal = combineSignals(options.signal, options.timeoutMs);
    const retryable = isRetryableMethod(def.method);

    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.#send(url, { method: def.method, headers, body, signal });
      if (outcome.kind === 'answer') {
        if (retryable && RETRYABLE_STATUSES.has(outcome.status)) {
          const delay = retryDelayMs(this.#retry, attempt, outcome.retryAfterMs, this.#random);
          if (delay !== null && (await this.#wait(delay, signal, options.signal))) continue;
        }
        return parseAnswer(def.responses as Readonly<Record<number, z.ZodType>>, outcome.status, outcome.text) as ResponseOf<N>;
      }
      if (options.signal?.aborted && !isTimeoutReason(options.signal.reason)) {
        throw new ApiFailure(cancelledError(), retryable ? 'not-sent' : 'unknown');
      }
      const failure = classifyNetworkFailure(outcome.error, this.baseUrl);
      if (retryable && failure.connectionLost) {
        const delay = retryDelayMs(this.#retry, attempt, null, this.#random);
        if (delay !== null && (await this.#wait(delay, signal, options.signal))) continue;
      }
      throw new ApiFailure(failure.error, failure.delivery);
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #send(
    url: URL,
    init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal | undefined },
  ): Promise<Attempt> {
    try {
      const response = await request(url, {
        method: init.method as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body,
        signal: init.signal,
        dispatcher: this.#dispatcher,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
      });
      const text = await response.body.text();
      return {
        kind: 'answer',
        status: response.statusCode,
        text,
        retryAfterMs: parseRetryAfter(response.headers['retry-after'], Date.now()),
      };
    } catch (error) {
      return { kind: 'failed', error };
    }
  }

  /** Waits before a retry; false when the wait was cut short (cancel or deadline: the caller then reports). */
  async #wait(ms: number, signal: AbortSignal | undefined, callerSignal: AbortSignal | undefined): Promise<boolean> {
    try {
      await sleep(ms, undefined, signal ? { signal } : {});
      return true;
    } catch (error) {
      if (callerSignal?.aborted && !isTimeoutReason(callerSignal.reason)) throw new ApiFailure(cancelledError(), 'not-sent');
      throw new ApiFailure(classifyNetworkFailure(error, this.baseUrl).error, 'unknown');
    }
  }
}

/** An answer with a status: its schema's value, or the typed error it stands for. */
function parseAnswer(responses: Readonly<Record<number, z.ZodType>>, status: number, text: string): unknown {
  const schema = responses[status];
  if (!schema) throw new ApiFailure(errorFromResponse(status, text), 'answered');
  // A success we cannot read still means the service acted: a money action must re-read the policy.
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiFailure({ kind: 'contract', status, message: 'The service answered with a body that is not JSON.' }, 'unknown');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiFailure(contractError(status, parsed.error.issues), 'unknown');
  return parsed.data;
}

function combineSignals(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  if (timeoutMs === undefined) return signal;
  const deadline = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, deadline]) : deadline;
}

function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}
