import { describe, expect, it } from 'vitest';
import { BackgroundRefresh } from '../../../electron/services/replica/background-refresh.js';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function setup(options: { minutes: number; signedIn?: boolean; lastFetchedAt?: string | null; now: number; fails?: boolean }) {
  let syncs = 0;
  const background = new BackgroundRefresh({
    intervalMinutes: () => options.minutes,
    signedIn: () => options.signedIn ?? true,
    lastFetchedAt: async () => options.lastFetchedAt ?? null,
    sync: async () => {
      syncs += 1;
      if (options.fails) throw new Error('offline');
    },
    logger: quiet,
    now: () => options.now,
  });
  return { background, syncs: () => syncs };
}

describe('BackgroundRefresh', () => {
  const t0 = Date.parse('2026-11-22T10:00:00Z');

  it('refreshes a copy older than the chosen interval, and only then', async () => {
    const due = setup({ minutes: 30, lastFetchedAt: new Date(t0 - 31 * 60_000).toISOString(), now: t0 });
    expect(await due.background.tick()).toBe(true);
    const fresh = setup({ minutes: 30, lastFetchedAt: new Date(t0 - 29 * 60_000).toISOString(), now: t0 });
    expect(await fresh.background.tick()).toBe(false);
    expect(fresh.syncs()).toBe(0);
    expect(await setup({ minutes: 60, lastFetchedAt: null, now: t0 }).background.tick()).toBe(true);
  });

  it('fills a missing copy whatever the interval, and refreshes at every sign-in', async () => {
    expect(await setup({ minutes: 0, lastFetchedAt: null, now: t0 }).background.tick()).toBe(true);
    const fresh = new Date(t0 - 60_000).toISOString();
    expect(await setup({ minutes: 240, lastFetchedAt: fresh, now: t0 }).background.tick()).toBe(false);
    expect(await setup({ minutes: 240, lastFetchedAt: fresh, now: t0 }).background.tick('sign-in')).toBe(true);
    expect(await setup({ minutes: 0, lastFetchedAt: fresh, now: t0 }).background.tick('sign-in')).toBe(true);
    expect(await setup({ minutes: 0, signedIn: false, now: t0 }).background.tick('sign-in')).toBe(false);
  });

  it('does nothing when off or signed out, and survives a failed sync', async () => {
    const copy = new Date(t0 - 600 * 60_000).toISOString();
    expect(await setup({ minutes: 0, lastFetchedAt: copy, now: t0 }).background.tick()).toBe(false);
    const signedOut = setup({ minutes: 30, signedIn: false, now: t0 });
    expect(await signedOut.background.tick()).toBe(false);
    expect(signedOut.syncs()).toBe(0);
    const failing = setup({ minutes: 30, now: t0, fails: true });
    expect(await failing.background.tick()).toBe(false);
    expect(await failing.background.tick()).toBe(false);
    expect(failing.syncs()).toBe(2);
  });

  it('starts no refresh once stopped, not even one whose look was under way', async () => {
    const stopped = setup({ minutes: 30, lastFetchedAt: null, now: t0 });
    const look = stopped.background.tick('sign-in');
    stopped.background.stop();
    expect(await look).toBe(false);
    expect(stopped.syncs()).toBe(0);
  });
});
