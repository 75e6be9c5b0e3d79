import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope } from '../../shared/api/errors.js';
import { ENDPOINTS, buildPath, type EndpointName } from '../../shared/api/endpoints.js';
import { SANDBOX_USERS, type SandboxUser } from '../../sandbox/accounts.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../sandbox/server.js';

export const ALEX = SANDBOX_USERS[0] as SandboxUser;
export const JORDAN = SANDBOX_USERS[1] as SandboxUser;

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

/** A started sandbox plus small helpers for talking to it over real HTTP. */
export class Sandbox {
  private constructor(readonly handle: SandboxHandle) {}

  static async start(options: SandboxOptions = {}): Promise<Sandbox> {
    return new Sandbox(await startSandbox({ controls: true, ...options }));
  }

  get url(): string {
    return this.handle.url;
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  async raw(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
    const response = await fetch(this.url + path, {
      method,
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: parseOrUndefined(text) };
  }

  async signIn(user: SandboxUser = ALEX): Promise<string> {
    const answer = await this.raw('POST', ENDPOINTS.signIn.path, {
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
    expect(answer.status).toBe(200);
    return (answer.body as { access_token: string }).access_token;
  }

  /** Calls an endpoint of the table by name. */
  call(
    name: EndpointName,
    token: string | null,
    options: { params?: Record<string, string>; query?: Record<string, string | number>; body?: unknown; rawBody?: string } = {},
  ): Promise<Answer> {
    const def = ENDPOINTS[name];
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) search.set(key, String(value));
    const qs = search.size > 0 ? `?${search.toString()}` : '';
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    return this.raw(def.method, buildPath(def.path, options.params ?? {}) + qs, {
      ...(body !== undefined ? { body } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }

  async control(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.raw(method, `/sandbox${path}`, body === undefined ? {} : { body: JSON.stringify(body) });
  }

  async setClock(body: { now?: string; advanceSeconds?: number; frozen?: boolean }): Promise<void> {
    const answer = await this.control('POST', '/clock', body);
    expect(answer.status).toBe(200);
  }

  async reset(body: { seed?: number; scale?: number } = {}): Promise<void> {
    const answer = await this.control('POST', '/reset', body);
    expect(answer.status).toBe(200);
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The answer is exactly the error envelope with this status and description. */
export function expectError(answer: Answer, status: number, description: string | RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  const envelope = ErrorEnvelope.parse(answer.body);
  expect(Object.keys(answer.body as object)).toEqual(['error']);
  expect(Object.keys(envelope.error)).toEqual(['code', 'message', 'details']);
  expect(Object.keys(envelope.error.details)).toEqual(['timestamp', 'description']);
  expect(envelope.error.code).toBe(String(status));
  expect(envelope.error.details.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  if (typeof description === 'string') expect(envelope.error.details.description).toBe(description);
  else expect(envelope.error.details.description).toMatch(description);
}

/** The answer has this status and a body its schema accepts, unchanged by parsing. */
export function expectBody<S extends z.ZodType>(answer: Answer, status: number, schema: S): z.output<S> {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const parsed = schema.safeParse(answer.body);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  return parsed.data as z.output<S>;
}

/** The success schema ENDPOINTS gives for an endpoint and status. */
export function successSchema(name: EndpointName, status = 200): z.ZodType {
  const schema = (ENDPOINTS[name].responses as Readonly<Record<number, z.ZodType>>)[status];
  if (!schema) throw new Error(`${name} has no ${status} response`);
  return schema;
}

export const DAY_S = 86_400;
