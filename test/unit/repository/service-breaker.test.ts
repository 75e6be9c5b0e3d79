import { describe, expect, it } from 'vitest';
import { ServiceBreaker } from '../../../electron/services/repository/service-breaker.js';

describe('ServiceBreaker', () => {
  it('sends reads to the copy for the cool-off after the service did not answer, then lets one try again', () => {
    let now = 1_000;
    const breaker = new ServiceBreaker(30_000, () => now);
    expect(breaker.open).toBe(false);
    breaker.unreachable();
    expect(breaker.open).toBe(true);
    now += 29_999;
    expect(breaker.open).toBe(true);
    now += 1;
    expect(breaker.open).toBe(false);
  });

  it('closes on the first live answer', () => {
    const breaker = new ServiceBreaker(30_000, () => 0);
    breaker.unreachable();
    breaker.answered();
    expect(breaker.open).toBe(false);
  });
});
