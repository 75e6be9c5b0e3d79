import { describe, expect, it } from 'vitest';
import { FirstScreen } from '../../../electron/services/overview/first-screen.js';
import type { Handlers } from '../../../shared/ipc/contract.js';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe('FirstScreen', () => {
  it('lets a waiting refresh go when the overview is answered, and not before', async () => {
    const firstScreen = new FirstScreen();
    let answer: () => void = () => undefined;
    const handlers = firstScreen.watch({ 'overview.summary': () => new Promise((resolve) => (answer = () => resolve('figures'))) } as unknown as Handlers);
    const waiting = firstScreen.next(60_000);
    const asked = handlers['overview.summary'](undefined);
    expect(await settled(waiting)).toBe(false);
    answer();
    expect(await asked).toBe('figures');
    expect(await settled(waiting)).toBe(true);
  });

  it('lets it go when the overview fails too (the screen shows the failure), and after the wait when nobody asks', async () => {
    const firstScreen = new FirstScreen();
    const handlers = firstScreen.watch({ 'overview.summary': () => Promise.reject(new Error('offline')) } as unknown as Handlers);
    const waiting = firstScreen.next(60_000);
    await expect(handlers['overview.summary'](undefined)).rejects.toThrow('offline');
    expect(await settled(waiting)).toBe(true);
    // An answer before the wait began does not count for it: only the next one, or the time limit.
    const started = Date.now();
    await firstScreen.next(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
