import { describe, expect, it } from 'vitest';
import { FirstScreen } from '../../../electron/services/overview/first-screen.js';
import type { Handlers } from '../../../shared/ipc/contract.js';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG = { afterWindowMs: 60_000, withoutWindowMs: 60_000 };

describe('FirstScreen', () => {
  it('lets a waiting refresh go when the overview is answered, and not before', async () => {
    const firstScreen = new FirstScreen();
    let answer: () => void = () => undefined;
    const handlers = firstScreen.watch({ 'overview.summary': () => new Promise((resolve) => (answer = () => resolve('figures'))) } as unknown as Handlers);
    const waiting = firstScreen.next(LONG);
    const asked = handlers['overview.summary'](undefined);
    expect(await settled(waiting)).toBe(false);
    answer();
    expect(await asked).toBe('figures');
    expect(await settled(waiting)).toBe(true);
  });

  it('lets it go when the overview fails too (the screen shows the failure), and after the wait when no window calls', async () => {
    const firstScreen = new FirstScreen();
    const handlers = firstScreen.watch({ 'overview.summary': () => Promise.reject(new Error('offline')) } as unknown as Handlers);
    const waiting = firstScreen.next(LONG);
    await expect(handlers['overview.summary'](undefined)).rejects.toThrow('offline');
    expect(await settled(waiting)).toBe(true);
    // An answer before the wait began does not count for it: only the next one, or the time limit.
    const started = Date.now();
    await firstScreen.next({ afterWindowMs: 60_000, withoutWindowMs: 50 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('counts the wait for a window that shows something else from its first call, not from the start (a page slow to load its code)', async () => {
    const firstScreen = new FirstScreen();
    const handlers = firstScreen.watch({ 'session.status': () => Promise.resolve('signed in') } as unknown as Handlers);
    const waiting = firstScreen.next({ afterWindowMs: 150, withoutWindowMs: 60_000 });
    await sleep(300);
    expect(await settled(waiting)).toBe(false);
    const calledAt = Date.now();
    expect(await handlers['session.status'](undefined)).toBe('signed in');
    await waiting;
    expect(Date.now() - calledAt).toBeGreaterThanOrEqual(140);
  });

  it('holds the wait while an overview is being answered, however long past its limit, until that answer', async () => {
    const firstScreen = new FirstScreen();
    let answer: () => void = () => undefined;
    const handlers = firstScreen.watch({ 'overview.summary': () => new Promise((resolve) => (answer = () => resolve('figures'))) } as unknown as Handlers);
    const waiting = firstScreen.next({ afterWindowMs: 50, withoutWindowMs: 50 });
    const asked = handlers['overview.summary'](undefined);
    await sleep(200);
    expect(await settled(waiting)).toBe(false);
    answer();
    await asked;
    expect(await settled(waiting)).toBe(true);
  });
});

describe('FirstScreen.after (a heavy panel beside the first screen)', () => {
  it('does its work once the overview has had its figures, and at once after that', async () => {
    const firstScreen = new FirstScreen();
    let answer: () => void = () => undefined;
    const handlers = firstScreen.watch({ 'overview.summary': () => new Promise((resolve) => (answer = () => resolve('figures'))) } as unknown as Handlers);
    const worked: string[] = [];
    const panel = firstScreen.after(async (input: string) => {
      worked.push(input);
      return input;
    }, LONG);
    // The panel's call comes first, as it may: the overview is asked at the same moment.
    const early = panel('first');
    const asked = handlers['overview.summary'](undefined);
    await sleep(50);
    expect(worked).toEqual([]);
    answer();
    await asked;
    expect(await early).toBe('first');
    expect(await Promise.race([panel('later'), sleep(50).then(() => 'waited')])).toBe('later');
  });
});

describe('FirstScreen with a time to paint', () => {
  it('lets the waiting work go that long after the overview\'s answer, not at once', async () => {
    const firstScreen = new FirstScreen({ paintMs: 150 });
    const handlers = firstScreen.watch({ 'overview.summary': () => Promise.resolve('figures') } as unknown as Handlers);
    const waiting = firstScreen.next(LONG);
    await handlers['overview.summary'](undefined);
    const answeredAt = Date.now();
    expect(await settled(waiting)).toBe(false);
    await waiting;
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(140);
  });

  it('takes no overview asked while no one is signed in for the first screen: the window asks as its code starts, before it knows (overview13)', async () => {
    let signedIn = false;
    const firstScreen = new FirstScreen({ preparedForMs: 60_000, whose: () => (signedIn ? 'alex' : ''), signedIn: () => signedIn });
    let counted = 0;
    const handlers = firstScreen.watch({
      'overview.summary': () => (++counted, signedIn ? Promise.resolve(`figures ${counted}`) : Promise.reject(new Error('not signed in'))),
    } as unknown as Handlers);
    // The work a sign-in defers waits for the sign-in's first screen, not for the refusal the window's early ask got.
    const waiting = firstScreen.next(LONG);
    await expect(handlers['overview.summary'](undefined)).rejects.toThrow('not signed in');
    expect(await settled(waiting)).toBe(false);
    // Signed in: a count prepared for the first screen is still made, and the window's ask takes it and ends the wait.
    signedIn = true;
    firstScreen.prepare();
    expect(counted).toBe(2);
    expect(await handlers['overview.summary'](undefined)).toBe('figures 2');
    expect(counted).toBe(2);
    expect(await settled(waiting)).toBe(true);
  });

  describe('an overview prepared before any window asks (issue 25)', () => {
    const counting = (answers: Array<() => Promise<string>>) => {
      let counted = 0;
      const overview = () => (answers[counted++] ?? (() => Promise.resolve(`count ${counted}`)))();
      return { overview, counted: () => counted };
    };

    it('is taken by the window\'s first ask (counted once), and lets the waiting work go only at that ask', async () => {
      const firstScreen = new FirstScreen({ preparedForMs: 60_000, whose: () => 'alex' });
      const { overview, counted } = counting([() => Promise.resolve('prepared')]);
      const handlers = firstScreen.watch({ 'overview.summary': overview } as unknown as Handlers);
      const waiting = firstScreen.next(LONG);
      firstScreen.prepare();
      expect(counted()).toBe(1);
      await sleep(20);
      expect(await settled(waiting)).toBe(false);
      expect(await handlers['overview.summary'](undefined)).toBe('prepared');
      expect(counted()).toBe(1);
      expect(await settled(waiting)).toBe(true);
      // Taken once: the next ask counts anew.
      expect(await handlers['overview.summary'](undefined)).toBe('count 2');
    });

    it('is counted anew for another session, when too old, or when the prepared count failed', async () => {
      let who = 'alex';
      const other = new FirstScreen({ preparedForMs: 60_000, whose: () => who });
      const a = counting([() => Promise.resolve('for alex')]);
      const otherHandlers = other.watch({ 'overview.summary': a.overview } as unknown as Handlers);
      other.prepare();
      who = 'jordan';
      expect(await otherHandlers['overview.summary'](undefined)).toBe('count 2');

      const old = new FirstScreen({ preparedForMs: 10, whose: () => 'alex' });
      const b = counting([() => Promise.resolve('old')]);
      const oldHandlers = old.watch({ 'overview.summary': b.overview } as unknown as Handlers);
      old.prepare();
      await sleep(50);
      expect(await oldHandlers['overview.summary'](undefined)).toBe('count 2');

      const failed = new FirstScreen({ preparedForMs: 60_000, whose: () => 'alex' });
      const c = counting([() => Promise.reject(new Error('database busy'))]);
      const failedHandlers = failed.watch({ 'overview.summary': c.overview } as unknown as Handlers);
      failed.prepare();
      expect(await failedHandlers['overview.summary'](undefined)).toBe('count 2');
    });

    it('is not counted while a window that asked first is being answered (the count waits for the window\'s code, which may ask first)', async () => {
      const firstScreen = new FirstScreen({ preparedForMs: 60_000, whose: () => 'alex' });
      let answer: (figures: string) => void = () => undefined;
      const { overview, counted } = counting([() => new Promise((resolve) => (answer = resolve))]);
      const handlers = firstScreen.watch({ 'overview.summary': overview } as unknown as Handlers);
      const asked = handlers['overview.summary'](undefined);
      firstScreen.prepare();
      expect(counted()).toBe(1);
      answer('asked first');
      expect(await asked).toBe('asked first');
      // Answered once: nothing is prepared afterwards either.
      firstScreen.prepare();
      expect(counted()).toBe(1);
    });
  });
});
