import { describe, expect, it } from 'vitest';
import { SingleInstance, type FocusableWindow, type SingleInstanceApp } from '../../../electron/services/desktop/single-instance.js';

/** Electron's app as far as the lock goes: another copy may already hold it. */
class FakeApp implements SingleInstanceApp {
  quitCalls = 0;
  #secondInstance: (() => void) | null = null;
  constructor(private readonly lockFree: boolean) {}
  requestSingleInstanceLock(): boolean {
    return this.lockFree;
  }
  quit(): void {
    this.quitCalls++;
  }
  on(event: 'second-instance', listener: () => void): this {
    expect(event).toBe('second-instance');
    this.#secondInstance = listener;
    return this;
  }
  get listening(): boolean {
    return this.#secondInstance !== null;
  }
  /** What Electron does in the first copy when the app is launched again. */
  launchAgain(): void {
    this.#secondInstance?.();
  }
}

class FakeWindow implements FocusableWindow {
  calls: string[] = [];
  constructor(
    public minimized = false,
    public visible = true,
    public destroyed = false,
  ) {}
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  isVisible = () => this.visible;
  restore = () => {
    this.calls.push('restore');
    this.minimized = false;
  };
  show = () => {
    this.calls.push('show');
    this.visible = true;
  };
  focus = () => {
    this.calls.push('focus');
  };
}

describe('single-instance lock', () => {
  it('a second copy quits at once and never listens for launches', () => {
    const app = new FakeApp(false);
    expect(new SingleInstance(app).claim()).toBe(false);
    expect(app.quitCalls).toBe(1);
    expect(app.listening).toBe(false);
  });

  it('the first copy keeps running and brings a minimised window back on a second launch', () => {
    const app = new FakeApp(true);
    const instance = new SingleInstance(app);
    expect(instance.claim()).toBe(true);
    expect(app.quitCalls).toBe(0);
    const window = new FakeWindow(true);
    instance.attach(window);
    expect(window.calls).toEqual([]);
    app.launchAgain();
    expect(window.calls).toEqual(['restore', 'focus']);
    expect(window.minimized).toBe(false);
  });

  it('shows a hidden window before focusing it', () => {
    const app = new FakeApp(true);
    const instance = new SingleInstance(app);
    instance.claim();
    const window = new FakeWindow(false, false);
    instance.attach(window);
    app.launchAgain();
    expect(window.calls).toEqual(['show', 'focus']);
  });

  it('a launch during start-up focuses the window as soon as it exists, once', () => {
    const app = new FakeApp(true);
    const instance = new SingleInstance(app);
    instance.claim();
    app.launchAgain();
    const window = new FakeWindow();
    instance.attach(window);
    expect(window.calls).toEqual(['focus']);
    const next = new FakeWindow();
    instance.attach(next);
    expect(next.calls).toEqual([]);
  });

  it('never touches a destroyed window, and focuses the next one instead', () => {
    const app = new FakeApp(true);
    const instance = new SingleInstance(app);
    instance.claim();
    const closed = new FakeWindow(false, true, true);
    instance.attach(closed);
    app.launchAgain();
    expect(closed.calls).toEqual([]);
    const reopened = new FakeWindow();
    instance.attach(reopened);
    expect(reopened.calls).toEqual(['focus']);
  });
});
