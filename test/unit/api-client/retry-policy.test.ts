import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  RETRYABLE_STATUSES,
  isRetryableMethod,
  parseRetryAfter,
  retryDelayMs,
} from '../../../electron/services/api-client/retry-policy.js';

describe('retry policy', () => {
  it('retries GET only', () => {
    expect(isRetryableMethod('GET')).toBe(true);
    expect(isRetryableMethod('POST')).toBe(false);
    expect(isRetryableMethod('PUT')).toBe(false);
    expect([...RETRYABLE_STATUSES].sort()).toEqual([429, 502, 503, 504]);
  });

  it('backs off exponentially under a jittered ceiling and stops after maxAttempts', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 350, maxAttempts: 4 };
    expect(retryDelayMs(policy, 1, null, () => 0.999)).toBe(100);
    expect(retryDelayMs(policy, 2, null, () => 0.999)).toBe(200);
    expect(retryDelayMs(policy, 3, null, () => 0.999)).toBe(350);
    expect(retryDelayMs(policy, 3, null, () => 0)).toBe(0);
    expect(retryDelayMs(policy, 4, null, () => 0.5)).toBeNull();
  });

  it('waits at least Retry-After, and gives up when it is too long', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxRetryAfterMs: 5_000 };
    expect(retryDelayMs(policy, 1, 2_000, () => 0.5)).toBe(2_050);
    expect(retryDelayMs(policy, 1, 6_000, () => 0.5)).toBeNull();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(['2'], now)).toBe(2_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
