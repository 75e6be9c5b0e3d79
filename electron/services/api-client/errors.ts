import type { z } from 'zod';
import { ErrorEnvelope } from '../../../shared/api/errors.js';
import { parseFieldRule } from '../../../shared/api/contract-choices.js';
import { AppFailure, type AppError } from '../../../shared/ipc/result.js';

/** Maps an HTTP error answer (any status without a success schema) to the error model. */
export function errorFromResponse(status: number, bodyText: string): AppError {
  const envelope = safeJson(bodyText, ErrorEnvelope);
  const description = envelope?.error.details.description;
  if (status === 400) {
    const fieldRule = description ? parseFieldRule(description) : null;
    return {
      kind: 'validation',
      status,
      message: description ?? 'The service refused the request as invalid.',
      ...(description ? { description } : {}),
      ...(fieldRule ? { field: fieldRule.field } : {}),
    };
  }
  if (status === 401) {
    return { kind: 'unauthorized', status, message: description ?? 'The service did not accept the credentials.', ...(description ? { description } : {}) };
  }
  if (status === 404) {
    return { kind: 'not-found', status, message: description ?? 'Not found.', ...(description ? { description } : {}) };
  }
  if (status >= 500 || status === 429) {
    return {
      kind: 'server',
      status,
      message: description ?? `The service had a problem (HTTP ${status}). Try again in a moment.`,
      ...(description ? { description } : {}),
    };
  }
  return {
    kind: 'contract',
    status,
    message: `The service answered with an unexpected status (HTTP ${status}).`,
    ...(description ? { description } : {}),
  };
}

/** A success answer that does not match its schema: name the first offending field. */
export function contractError(status: number, issues: readonly z.core.$ZodIssue[]): AppError {
  const first = issues[0];
  const field = first && first.path.length > 0 ? first.path.map(String).join('.') : undefined;
  return {
    kind: 'contract',
    status,
    message: field
      ? `The service's answer could not be read: field "${field}" ${first?.message ?? 'is invalid'}.`
      : 'The service\'s answer could not be read.',
    ...(field ? { field } : {}),
  };
}

interface ErrorWithCode {
  code?: unknown;
  cause?: unknown;
  name?: unknown;
  message?: unknown;
}

/** Maps a failure to reach the service (undici or DNS or TLS) to the error model. */
export function errorFromNetwork(error: unknown, baseUrl: string): AppError {
  const code = networkCode(error);
  const host = safeHost(baseUrl);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'timeout', message: `Connecting to ${host} took too long. Check your network and try again.` };
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ABORT_TIMEOUT') {
    return { kind: 'timeout', message: `${host} did not answer in time. Try again.` };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return { kind: 'offline', message: `The address ${host} could not be found (DNS). Check the profile's URL and your network.` };
  }
  if (code === 'ECONNREFUSED') {
    return { kind: 'offline', message: `${host} refused the connection: the service is not running there or cannot be reached.` };
  }
  if (code && /CERT|TLS|SSL|SELF_SIGNED/i.test(code)) {
    return { kind: 'offline', message: `The secure connection to ${host} failed (${code}). The certificate is not trusted on this computer.` };
  }
  return {
    kind: 'offline',
    message: `The connection to ${host} was lost${code ? ` (${code})` : ''}. Check your network and try again.`,
  };
}

export function failure(error: AppError): AppFailure {
  return new AppFailure(error);
}

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as ErrorWithCode;
    if (typeof candidate.code === 'string') return candidate.code;
    current = candidate.cause;
  }
  return undefined;
}

function safeHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function safeJson<T extends z.ZodType>(text: string, schema: T): z.output<T> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
