import { describe, expect, it } from 'vitest';
import { ExpiryTimers } from '../../../electron/services/session/expiry-timers.js';
import { ManualClock } from './manual-clock.js';

const MINUTE = 60_000;

function setup(start = '2026-05-01T10:00:00Z') {
  const clock = new ManualClock(start);
  const timers = new ExpiryTimers({ now: () => clock.nowMs, warningMs: 5 * MINUTE, timers: clock });
  const seen: string[] = [];
  const callbacks = { warn: (m: number) => seen.push(`warn ${m}`), expire: () => seen.push('expire') };
  return { clock, timers, seen, callbacks };
}

describe('session expiry timers', () => {
  it('warns five minutes before expiry, then expires', () => {
    const { clock, timers, seen, callbacks } = setup();
    timers.schedule(clock.nowMs + 60 * MINUTE, callbacks);
    clock.advance(55 * MINUTE - 1);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual(['warn 5']);
    clock.advance(5 * MINUTE);
    expect(seen).toEqual(['warn 5', 'expire']);
    expect(clock.pending).toBe(0);
  });

  it('warns at once when less than the warning time is left', () => {
    const { clock, timers, seen, callbacks } = setup();
    timers.schedule(clock.nowMs + 3 * MINUTE + 10_000, callbacks);
    clock.advance(0);
    expect(seen).toEqual(['warn 3']);
  });

  it('forgets both deadlines when cleared or rescheduled', () => {
    const { clock, timers, seen, callbacks } = setup();
    timers.schedule(clock.nowMs + 60 * MINUTE, callbacks);
    timers.schedule(clock.nowMs + 120 * MINUTE, callbacks);
    clock.advance(61 * MINUTE);
    expect(seen).toEqual([]);
    timers.clear();
    clock.advance(120 * MINUTE);
    expect(seen).toEqual([]);
  });

  it('waits again when a timer fires before the wall clock reaches the deadline', () => {
    // Timers run on their own clock; the wall clock can lag behind it (set back, or resumed from sleep).
    let now = 0;
    const queued: Array<() => void> = [];
    const timers = new ExpiryTimers({
      now: () => now,
      warningMs: 5 * MINUTE,
      timers: { setTimeout: (callback) => queued.push(callback), clearTimeout: () => undefined },
    });
    const seen: string[] = [];
    timers.schedule(10 * MINUTE, { warn: (m) => seen.push(`warn ${m}`), expire: () => seen.push('expire') });
    const [, expire] = queued;
    now = 8 * MINUTE;
    expire?.();
    expect(seen).toEqual([]);
    expect(queued).toHaveLength(3);
    now = 10 * MINUTE;
    queued[2]?.();
    expect(seen).toEqual(['expire']);
  });
});
