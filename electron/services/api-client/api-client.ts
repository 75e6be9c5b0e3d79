import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ENDPOINTS, buildPath, maxBodyBytes, type EndpointDef, type EndpointName } from '../../../shared/api/endpoints.js';
import { QUERY } from '../../../shared/api/contract-choices.js';
import { driftFindings, unknownFields } from '../../../shared/api/drift.js';
import { DRIFT_NOT_COMPARED, notJsonError, readAnswerText, type AnswerRead } from './answer-reading.js';
import { type ReadContext, type ReadEndpoint, type ReadOf } from '../../../shared/api/readers.js';
import { ApiFailure, cancelledError, classifyNetworkFailure, contractError, errorFromResponse, type Delivery } from './errors.js';
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
  /** A shorter deadline for the whole call than the client's own total (retries included); on top of the agent's timeouts. */
  readonly timeoutMs?: number;
} & ([PathParamsOf<N>] extends [never] ? { readonly params?: undefined } : { readonly params: Record<PathParamsOf<N>, string> }) &
  (BodyOf<N> extends undefined ? { readonly body?: undefined } : { readonly body: BodyOf<N> }) &
  (QueryOf<N> extends undefined ? { readonly query?: undefined } : { readonly query: QueryOf<N> });

export interface RequestTimeouts {
  /** Longest wait for the status line and headers of an answer. */
  readonly headersMs: number;
  /** Longest gap between two chunks of an answer's body. */
  readonly bodyMs: number;
  /** Longest time for the whole call, retries and the last byte of the answer included; DEFAULT_TIMEOUTS.totalMs when absent. */
  readonly totalMs?: number | undefined;
}

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly dispatcher?: Dispatcher;
  readonly timeouts?: RequestTimeouts;
  readonly retry?: RetryPolicy | undefined;
  /** Jitter source; tests pin it. */
  readonly random?: () => number;
  /** Told how an answer differs from the shape this version expects (field paths only). */
  readonly onDrift?: DriftListener;
  /** Sent with every request (the built-in sandbox's access secret). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** A read endpoint's success answer, unread: its status, its body, what the request asked, whether drift is listened for. */
export interface UnreadAnswer {
  readonly status: number;
  readonly body: Uint8Array;
  readonly context: ReadContext;
  readonly withDrift: boolean;
}

/** Reads an answer as readAnswerText does (answer-reading.ts), here or on another thread. */
export type AnswerReader<R> = (answer: UnreadAnswer) => AnswerRead<R> | Promise<AnswerRead<R>>;

/** Receives an endpoint's differences from the expected shape; never values. */
export type DriftListener = (endpoint: EndpointName, findings: readonly string[]) => void;

type Attempt =
  | { kind: 'answer'; status: number; body: Uint8Array; retryAfterMs: number | null }
  | { kind: 'too-large'; status: number }
  | { kind: 'failed'; error: unknown };

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
  readonly #onDrift: DriftListener | undefined;
  readonly #headers: Readonly<Record<string, string>>;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createHttpAgent();
    this.#timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#random = options.random ?? Math.random;
    this.#headers = options.headers ?? {};
    this.#onDrift = options.onDrift;
  }

  /** Sends a request and reads its answer strictly: every field the schema names must be there. */
  async call<N extends EndpointName>(name: N, options: CallOptions<N>): Promise<ResponseOf<N>> {
    const { status, body } = await this.#exchange(name, options);
    const responses = ENDPOINTS[name].responses as Readonly<Record<number, z.ZodType>>;
    const json = parseJson(ENDPOINTS[name], status, decodeBody(body));
    const schema = responses[status] as z.ZodType;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      this.#reportDrift(name, () => driftFindings(schema, json));
      throw new ApiFailure(contractError(status, parsed.error.issues), 'unknown');
    }
    this.#reportDrift(name, () => unknownFields(schema, json, []).map((path) => `unknown field ${path}`).sort());
    return parsed.data as ResponseOf<N>;
  }

  /**
   * Sends a read request and reads its answer tolerantly (shared/api/readers.ts):
   * list items one by one, detail views group by group. Differences from the
   * expected shape are reported, not thrown; only an unreadable envelope fails.
   */
  async read<N extends EndpointName & ReadEndpoint>(name: N, options: CallOptions<N>): Promise<ReadOf<N>> {
    return this.readWith(name, options, ({ status, body, context, withDrift }) => readAnswerText(name, status, decodeBody(body), context, withDrift));
  }

  /**
   * As `read`, the answer's success body handed unread (its bytes, the caller's to transfer) to `reader`, which
   * must read it as readAnswerText does and may hand back less than the view (a list page's rows compared with
   * the copy, on the list-page thread: replica/list-page-thread.ts). The request, its retries, its deadline and
   * its token stay here; an error status is read here, as by `read`.
   */
  async readWith<N extends EndpointName & ReadEndpoint, R>(name: N, options: CallOptions<N>, reader: AnswerReader<R>): Promise<R> {
    const { status, body } = await this.#exchange(name, options);
    const def: EndpointDef = ENDPOINTS[name];
    if (!def.responses[status]) throw new ApiFailure(errorFromResponse(status, decodeBody(body)), deliveryOf(def, status));
    const context = {
      params: (options.params ?? {}) as Readonly<Record<string, string>>,
      query: (options.query ?? {}) as Readonly<Record<string, unknown>>,
    };
    const read = await reader({ status, body, context, withDrift: this.#onDrift !== undefined });
    this.#reportDrift(name, () => read.drift);
    // A success we cannot read still means the service acted: a money action must re-read the policy.
    if ('failure' in read) throw new ApiFailure(read.failure, 'unknown');
    return read.value;
  }

  #reportDrift(name: EndpointName, findings: () => readonly string[]): void {
    if (!this.#onDrift) return;
    // Diagnostics never fail a call: after a money action's 2xx, a throw here would hide that it was done.
    try {
      const found = findings();
      if (found.length > 0) this.#onDrift(name, found);
    } catch {
      this.#onDrift(name, [DRIFT_NOT_COMPARED]);
    }
  }

  /** One request, with its GET retries, up to the answer's status and body (or the typed failure). */
  async #exchange<N extends EndpointName>(name: N, options: CallOptions<N>): Promise<{ status: number; body: Uint8Array }> {
    const def: Def<N> = ENDPOINTS[name];
    const url = new URL(this.baseUrl + buildPath(def.path, (options.params ?? {}) as Record<string, string>));
    for (const [key, value] of Object.entries(options.query ?? {})) {
      // The wire name of each parameter lives in contract-choices (QUERY), so the real service's names are one edit.
      if (value !== undefined && value !== '') url.searchParams.set(wireQueryName(key), String(value));
    }
    const headers: Record<string, string> = { ...this.#headers, accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const signal = combineSignals(options.signal, Math.min(options.timeoutMs ?? Infinity, this.#timeouts.totalMs ?? DEFAULT_TIMEOUTS.totalMs));
    const retryable = isRetryableMethod(def.method);

    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.#send(url, { method: def.method, headers, body, signal, maxBytes: maxBodyBytes(def) });
      if (outcome.kind === 'too-large') {
        throw new ApiFailure(
          {
            kind: 'contract',
            status: outcome.status,
            message: `The service's answer was larger than the ${formatBytes(maxBodyBytes(def))} this app reads for "${def.summary}", so it was not read.`,
          },
          deliveryOf(def, outcome.status),
        );
      }
      if (outcome.kind === 'answer') {
        if (retryable && RETRYABLE_STATUSES.has(outcome.status)) {
          const delay = retryDelayMs(this.#retry, attempt, outcome.retryAfterMs, this.#random);
          if (delay !== null && (await this.#wait(delay, signal, options.signal))) continue;
        }
        return { status: outcome.status, body: outcome.body };
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
    init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal | undefined; maxBytes: number },
  ): Promise<Attempt> {
    try {
      const response = await request(url, {
        method: init.method as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body ?? null,
        signal: init.signal ?? null,
        dispatcher: this.#dispatcher,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
      });
      const body = await readCapped(response, init.maxBytes);
      if (body === null) return { kind: 'too-large', status: response.statusCode };
      return {
        kind: 'answer',
        status: response.statusCode,
        body,
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

/**
 * The answer's body, or null past `maxBytes`: refused on its declared
 * length before any byte is read, else counted chunk by chunk, so an oversized
 * answer is never held whole. The connection is dropped either way.
 */
async function readCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.body.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** An answer's body as text (UTF-8, as the service sends JSON). */
function decodeBody(body: Uint8Array): string {
  return new TextDecoder().decode(body);
}

/**
 * Only an error status the endpoint documents is a definite refusal. Any other
 * answer (a 2xx or 3xx the table does not list, an undocumented status) says
 * nothing sure about what the service did: a money action re-reads the policy.
 */
function deliveryOf(def: EndpointDef, status: number): Delivery {
  return status >= 400 && def.errors.includes(status) ? 'answered' : 'unknown';
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** A success answer's JSON, or the typed error an error status (or a body that is not JSON) stands for. */
function parseJson(def: EndpointDef, status: number, text: string): unknown {
  if (!def.responses[status]) throw new ApiFailure(errorFromResponse(status, text), deliveryOf(def, status));
  // A success we cannot read still means the service acted: a money action must re-read the policy.
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiFailure(notJsonError(status), 'unknown');
  }
}

function wireQueryName(key: string): string {
  return (QUERY as Readonly<Record<string, string>>)[key] ?? key;
}

function combineSignals(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const deadline = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, deadline]) : deadline;
}

function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}
