import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ENDPOINTS, buildPath, type EndpointName } from '../../../shared/api/endpoints.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { contractError, errorFromNetwork, errorFromResponse } from './errors.js';
import { createHttpAgent } from './http-agent.js';

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
  readonly signal?: AbortSignal;
} & ([PathParamsOf<N>] extends [never] ? { readonly params?: undefined } : { readonly params: Record<PathParamsOf<N>, string> }) &
  (BodyOf<N> extends undefined ? { readonly body?: undefined } : { readonly body: BodyOf<N> }) &
  (QueryOf<N> extends undefined ? { readonly query?: undefined } : { readonly query: QueryOf<N> });

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly dispatcher?: Dispatcher;
}

/**
 * The only code that talks to the service. Requests are built from the shared
 * endpoint table; answers are parsed with its schemas; every failure becomes an
 * AppFailure carrying a typed error.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createHttpAgent();
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

    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method: def.method,
        headers,
        body,
        dispatcher: this.#dispatcher,
        signal: options.signal,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw new AppFailure(errorFromNetwork(error, this.baseUrl));
    }

    const schema = (def.responses as Readonly<Record<number, z.ZodType>>)[status];
    if (!schema) throw new AppFailure(errorFromResponse(status, text));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AppFailure({ kind: 'contract', status, message: 'The service answered with a body that is not JSON.' });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AppFailure(contractError(status, parsed.error.issues));
    return parsed.data as ResponseOf<N>;
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}
