import type { HttpMethod } from '../../../shared/api/endpoints.js';

/**
 * When a request is tried again. Only GETs: a POST or PUT that failed on the
 * way may still have been carried out, and money must never move twice.
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly maxAttempts: number;
  /** Upper bound of the first retry's delay; it doubles per retry (full jitter below it). */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the user. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 20_000,
};

/** Statuses that say "not now" rather than "no": busy, or a gateway in between failed. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export function isRetryableMethod(method: HttpMethod): boolean {
  return method === 'GET';
}

/**
 * The wait before retry number `retry` (1 for the first retry), or null to
 * give up: full jitter so many clients do not retry in step, and never less
 * than the service's own Retry-After.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (retry >= policy.maxAttempts) return null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.round(random() * ceiling);
  if (retryAfterMs === null) return jittered;
  if (retryAfterMs > policy.maxRetryAfterMs) return null;
  return retryAfterMs + Math.round(random() * policy.baseDelayMs);
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
