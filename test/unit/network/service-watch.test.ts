import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceWatch } from '../../../electron/services/network/service-watch.js';
import type { ServiceCheck } from '../../../shared/ipc/sourced.js';

const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A watch over a service whose answer the test sets, counting its checks and what it told. */
function watched(options: { active?: () => boolean } = {}) {
  const service = { up: true, checks: 0 };
  const told: ServiceCheck[] = [];
  const watch = new ServiceWatch({
    probe: async () => {
      service.checks += 1;
      return service.up;
    },
    active: options.active ?? (() => true),
    onChange: (state) => told.push(state),
    logger: quietLogger,
    upCheckEveryMs: 15_000,
    downDelaysMs: [2_000, 4_000, 8_000],
  });
  return { service, told, watch };
}

describe('ServiceWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('notices the service go away without any read, and come back, each told once', async () => {
    const { service, told, watch } = watched();
    watch.start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(told.map((s) => s.reachable)).toEqual([true]);
    service.up = false;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(told.map((s) => s.reachable)).toEqual([true, false]);
    service.up = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(told.map((s) => s.reachable)).toEqual([true, false, true]);
    // Up again: quiet until the next check, and that one tells nothing new.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(told).toHaveLength(3);
    await watch.stop();
  });

  it('backs off while the service is away (2, 4, 8, 8 s), telling each answer so a window opened since learns it', async () => {
    const { service, told, watch } = watched();
    service.up = false;
    watch.start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(service.checks).toBe(1);
    const at: number[] = [];
    for (let second = 1; second <= 22; second++) {
      const before = service.checks;
      await vi.advanceTimersByTimeAsync(1_000);
      if (service.checks > before) at.push(second);
    }
    expect(at).toEqual([2, 6, 14, 22]);
    expect(told.every((s) => !s.reachable)).toBe(true);
    expect(told).toHaveLength(5);
    await watch.stop();
  });

  it('asks nothing while reads keep hearing from the service, and hears a read that could not reach it at once', async () => {
    const { service, told, watch } = watched();
    watch.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const checks = service.checks;
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(10_000);
      watch.heard(true);
    }
    expect(service.checks).toBe(checks);
    watch.heard(false);
    expect(told.at(-1)?.reachable).toBe(false);
    await watch.stop();
  });

  it('asks nothing in its first wait after the start (the launch’s first screen and the sign-in’s refresh come first)', async () => {
    const { service, told, watch } = watched();
    watch.start();
    await vi.advanceTimersByTimeAsync(14_999);
    expect(service.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.checks).toBe(1);
    expect(told.map((s) => s.reachable)).toEqual([true]);
    await watch.stop();
  });

  it('asks nothing while inactive (signed out, offline by choice), and nothing after stop', async () => {
    let active = false;
    const { service, watch } = watched({ active: () => active });
    watch.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(service.checks).toBe(0);
    active = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(service.checks).toBe(1);
    await watch.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(service.checks).toBe(1);
  });
  it('takes nothing from a check that began under another session (review14): environment A away says nothing of B', async () => {
    let session = 'sandbox\nalex';
    let answer: (up: boolean) => void = () => undefined;
    const told: ServiceCheck[] = [];
    const watch = new ServiceWatch({
      probe: () => new Promise<boolean>((resolve) => (answer = resolve)),
      active: () => true,
      session: () => session,
      onChange: (state) => told.push(state),
      logger: quietLogger,
      upCheckEveryMs: 15_000,
      downDelaysMs: [2_000],
    });
    watch.start();
    await vi.advanceTimersByTimeAsync(15_000);
    // Signed out of A and into B while A's check waits; A's service could not be reached.
    session = 'prod\njordan';
    answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual([]);
    expect(watch.reachable).toBeNull();
    // B's own check says B's state.
    await vi.advanceTimersByTimeAsync(15_000);
    answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(told.map((s) => s.reachable)).toEqual([true]);
    await watch.stop();
  });
});
