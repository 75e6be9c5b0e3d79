import type { z } from 'zod';
import { ErrorEnvelope } from '../../../shared/api/errors.js';
import { parseFieldRule } from '../../../shared/api/contract-choices.js';
import { AppFailure, type AppError } from '../../../shared/ipc/result.js';
import { PROXY_UNUSABLE_CODE } from '../network/pac-answer.js';

/**
 * Whether a failed request may have reached the service. Money actions use it
 * to decide between "nothing happened, try again" and "re-read the policy".
 */
export type Delivery = 'not-sent' | 'unknown' | 'answered';

/** An AppFailure from the client, with what is known about delivery. */
export class ApiFailure extends AppFailure {
  constructor(
    error: AppError,
    readonly delivery: Delivery,
  ) {
    super(error);
    this.name = 'ApiFailure';
  }
}

/** Maps an HTTP error answer (any status without a success schema) to the error model. */
export function errorFromResponse(status: number, bodyText: string): AppError {
  const envelope = safeJson(bodyText, ErrorEnvelope);
  const description = envelope?.error.details.description;
  const withDescription = description ? { description } : {};
  if (status === 400) {
    const fieldRule = description ? parseFieldRule(description) : null;
    return {
      kind: 'rejected',
      status,
      message: description ?? 'The service refused the request as invalid.',
      ...withDescription,
      ...(fieldRule ? { field: fieldRule.field } : {}),
    };
  }
  if (status === 401) {
    return { kind: 'unauthorized', status, message: description ?? 'The service did not accept the credentials.', ...withDescription };
  }
  if (status === 404) {
    return { kind: 'not-found', status, message: description ?? 'Not found.', ...withDescription };
  }
  if (status === 429) {
    return { kind: 'server', status, message: 'The service is busy (too many requests). Try again in a moment.', ...withDescription };
  }
  if (status >= 500) {
    return {
      kind: 'server',
      status,
      message: description ?? `The service had a problem (HTTP ${status}). Try again in a moment.`,
      ...withDescription,
    };
  }
  return {
    kind: 'contract',
    status,
    message: `The service answered with an unexpected status (HTTP ${status}).`,
    ...withDescription,
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
      : "The service's answer could not be read.",
    field,
  };
}

/** The error for a request the caller itself cancelled. */
export function cancelledError(): AppError {
  return { kind: 'cancelled', message: 'Cancelled.' };
}

export interface NetworkFailure {
  readonly error: AppError;
  readonly delivery: Exclude<Delivery, 'answered'>;
  /** A dropped or reset connection: safe to try again for a GET. */
  readonly connectionLost: boolean;
}

const NOT_REACHED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

const TRUST_HINT =
  'If your company inspects HTTPS traffic, ask IT for its root certificate and start the app with NODE_EXTRA_CA_CERTS pointing at it (see the README, "Corporate networks").';

/** Maps a failure to reach the service (undici, DNS, TLS, a proxy, a timeout) to the error model. */
export function classifyNetworkFailure(error: unknown, baseUrl: string): NetworkFailure {
  const code = networkCode(error);
  const host = safeHost(baseUrl);
  const notSent = (e: AppError): NetworkFailure => ({ error: e, delivery: 'not-sent', connectionLost: false });

  if (isTimeoutAbort(error)) {
    return { error: { kind: 'timeout', message: `${host} did not answer in time. Try again.` }, delivery: 'unknown', connectionLost: false };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return notSent({ kind: 'timeout', message: `Connecting to ${host} took too long. Check your network (or proxy) and try again.` });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { error: { kind: 'timeout', message: `${host} did not answer in time. Try again.` }, delivery: 'unknown', connectionLost: false };
  }
  if (code && DNS_CODES.has(code)) {
    return notSent({
      kind: 'offline',
      message:
        code === 'EAI_AGAIN'
          ? `The name ${host} could not be looked up right now (DNS did not answer). Check your network connection.`
          : `The address ${host} could not be found (DNS). Check the profile's URL and your network.`,
    });
  }
  if (code && NOT_REACHED_CODES.has(code)) {
    return notSent({
      kind: 'offline',
      message:
        code === 'ECONNREFUSED'
          ? `${host} refused the connection: the service is not running there or cannot be reached.`
          : `${host} cannot be reached from this network.`,
    });
  }
  if (code === PROXY_UNUSABLE_CODE) {
    // Refused before any connection was opened: certainly not sent.
    const reason = causeChain(error).find((item) => item.code === PROXY_UNUSABLE_CODE)?.message;
    return notSent({ kind: 'offline', message: `${host} cannot be reached: ${typeof reason === 'string' ? reason : 'the system proxy settings allow no usable route.'}` });
  }
  const tls = tlsMessage(code, host);
  if (tls) return notSent({ kind: 'offline', message: tls });
  const proxyStatus = proxyRefusal(error);
  if (proxyStatus !== null) {
    return notSent({
      kind: 'offline',
      message:
        proxyStatus === 407
          ? 'The proxy asks for authentication (HTTP 407). Put the proxy credentials in HTTPS_PROXY or ask IT.'
          : `The proxy refused to connect to ${host} (HTTP ${proxyStatus}).`,
    });
  }
  return {
    // The code (UND_ERR_SOCKET and the like) is for the log, not for people: the words say what happened.
    error: { kind: 'offline', message: `The connection to ${host} was lost. Check your network and try again.` },
    delivery: 'unknown',
    connectionLost: code === undefined || LOST_CODES.has(code),
  };
}

/** Plain words for the TLS failures people meet behind corporate proxies; null when it is not one. */
function tlsMessage(code: string | undefined, host: string): string | null {
  if (!code) return null;
  if (code === 'CERT_HAS_EXPIRED') return `The certificate of ${host} has expired, so the connection is not safe.`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `The certificate presented for ${host} is for another name, so the connection is not safe.`;
  if (/SELF_SIGNED|UNABLE_TO_GET_ISSUER|UNABLE_TO_VERIFY|CERT_UNTRUSTED|CERT_CHAIN/i.test(code)) {
    return `The certificate of ${host} is not trusted on this computer (${code}). ${TRUST_HINT}`;
  }
  if (/CERT|TLS|SSL/i.test(code)) return `The secure connection to ${host} failed (${code}). ${TRUST_HINT}`;
  return null;
}

/** undici reports a refused CONNECT as "Proxy response (407) !== 200 when HTTP Tunneling". */
function proxyRefusal(error: unknown): number | null {
  for (const item of causeChain(error)) {
    const match = typeof item.message === 'string' ? /Proxy response \((\d{3})\)/.exec(item.message) : null;
    if (match) return Number(match[1]);
  }
  return null;
}

function isTimeoutAbort(error: unknown): boolean {
  return causeChain(error).some((item) => item.name === 'TimeoutError');
}

interface ErrorLike {
  code?: unknown;
  cause?: unknown;
  name?: unknown;
  message?: unknown;
}

function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    chain.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return chain;
}

function networkCode(error: unknown): string | undefined {
  const hit = causeChain(error).find((item) => typeof item.code === 'string');
  return hit?.code as string | undefined;
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
