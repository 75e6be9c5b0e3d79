import { describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../shared/ipc/desktop.js';
import { CHECK_INTERVAL_MS, FIRST_CHECK_DELAY_MS, UpdateController, type UpdaterPort } from '../../../electron/services/desktop/update-controller.js';
import { nextUpdateState, shortMessage, type UpdaterEvent } from '../../../electron/services/desktop/update-state.js';
import { ManualScheduler } from './manual-scheduler.js';
import { updateInstaller, type UpdateInstaller } from '../../../electron/services/desktop/update-availability.js';

/** electron-updater as the controller sees it; the test decides what the feed answers. */
class FakeUpdater implements UpdaterPort {
  checks = 0;
  downloads = 0;
  installs = 0;
  installOnQuit: boolean | null = null;
  /** What the next check finds: a version, nothing, or a failure. */
  feed: { version: string } | null | Error = null;
  #listener: ((event: UpdaterEvent) => void) | null = null;

  async check(): Promise<void> {
    this.checks++;
    this.emit({ type: 'checking' });
    if (this.feed instanceof Error) {
      this.emit({ type: 'error', message: this.feed.message });
      throw this.feed;
    }
    this.emit(this.feed ? { type: 'available', version: this.feed.version } : { type: 'not-available' });
  }
  async download(): Promise<void> {
    this.downloads++;
  }
  quitAndInstall(): void {
    this.installs++;
  }
  setInstallOnQuit(enabled: boolean): void {
    this.installOnQuit = enabled;
  }
  subscribe(listener: (event: UpdaterEvent) => void): () => void {
    this.#listener = listener;
    return () => {
      this.#listener = null;
    };
  }
  emit(event: UpdaterEvent): void {
    this.#listener?.(event);
  }
}

function setup(options: { automatic?: boolean; updater?: FakeUpdater | null; installer?: UpdateInstaller } = {}) {
  const scheduler = new ManualScheduler();
  const updater = options.updater === undefined ? new FakeUpdater() : options.updater;
  const prefs = { automatic: options.automatic ?? true };
  const changes: UpdateState[] = [];
  const controller = new UpdateController({
    updater,
    unavailableReason: 'The browser host does not update itself.',
    automatic: () => prefs.automatic,
    scheduler,
    onChange: (state) => changes.push(state),
    ...(options.installer ? { installer: options.installer } : {}),
  });
  return { scheduler, updater, prefs, changes, controller };
}

describe('update state machine', () => {
  const now = new Date('2026-03-02T09:00:00Z');
  it('goes checking, downloading, ready; a late event changes nothing', () => {
    let state: UpdateState = { phase: 'idle' };
    state = nextUpdateState(state, { type: 'checking' }, now);
    expect(state).toEqual({ phase: 'checking' });
    state = nextUpdateState(state, { type: 'available', version: '0.2.0' }, now);
    expect(state).toEqual({ phase: 'downloading', version: '0.2.0', percent: 0 });
    state = nextUpdateState(state, { type: 'progress', percent: 42.345 }, now);
    expect(state).toEqual({ phase: 'downloading', version: '0.2.0', percent: 42.3 });
    state = nextUpdateState(state, { type: 'downloaded', version: '0.2.0' }, now);
    expect(state).toEqual({ phase: 'ready', version: '0.2.0' });
    expect(nextUpdateState(state, { type: 'error', message: 'late' }, now)).toBe(state);
  });

  it('reports up to date with the time of the check, and never leaves "unavailable"', () => {
    expect(nextUpdateState({ phase: 'checking' }, { type: 'not-available' }, now)).toEqual({ phase: 'up-to-date', checkedAt: now.toISOString() });
    const unavailable: UpdateState = { phase: 'unavailable', reason: 'x' };
    expect(nextUpdateState(unavailable, { type: 'checking' }, now)).toBe(unavailable);
    expect(nextUpdateState({ phase: 'idle' }, { type: 'progress', percent: 5 }, now)).toEqual({ phase: 'idle' });
  });

  it('keeps error messages to one plain line', () => {
    expect(shortMessage('getaddrinfo ENOTFOUND api.github.com')).toBe('Could not reach the update server.');
    expect(shortMessage('HttpError: 404\n"method: GET url: https://github.com/..."\nstack')).toBe('HttpError: 404');
    expect(shortMessage('x'.repeat(400))).toHaveLength(160);
    expect(shortMessage('')).toBe('The update failed.');
  });
});

describe('update controller', () => {
  it('in the browser host: unavailable, with the reason, and nothing scheduled', async () => {
    const { scheduler, controller } = setup({ updater: null });
    controller.start();
    expect(controller.status()).toEqual({ phase: 'unavailable', reason: 'The browser host does not update itself.' });
    expect(await controller.check()).toEqual(controller.status());
    expect(scheduler.pending).toBe(0);
  });

  it('checks shortly after start and then every six hours, downloading what it finds', async () => {
    const { scheduler, updater, controller, changes } = setup();
    controller.start();
    expect(updater!.installOnQuit).toBe(true);
    scheduler.advance(FIRST_CHECK_DELAY_MS - 1);
    expect(updater!.checks).toBe(0);
    scheduler.advance(1);
    expect(updater!.checks).toBe(1);
    await Promise.resolve();
    expect(controller.status()).toMatchObject({ phase: 'up-to-date' });
    updater!.feed = { version: '0.2.0' };
    scheduler.advance(CHECK_INTERVAL_MS);
    await Promise.resolve();
    expect(updater!.checks).toBe(2);
    expect(updater!.downloads).toBe(1);
    updater!.emit({ type: 'progress', percent: 50 });
    updater!.emit({ type: 'downloaded', version: '0.2.0' });
    expect(controller.status()).toEqual({ phase: 'ready', version: '0.2.0' });
    expect(changes.map((state) => state.phase)).toEqual(['checking', 'up-to-date', 'checking', 'downloading', 'downloading', 'ready']);
    // Ready is final: no more checks on the timer.
    scheduler.advance(CHECK_INTERVAL_MS);
    await Promise.resolve();
    expect(updater!.checks).toBe(2);
  });

  it('restarts into the update only when one is ready', async () => {
    const { updater, controller } = setup();
    controller.start();
    controller.install();
    expect(updater!.installs).toBe(0);
    updater!.feed = { version: '0.2.0' };
    await controller.check();
    updater!.emit({ type: 'downloaded', version: '0.2.0' });
    controller.install();
    expect(updater!.installs).toBe(1);
  });

  it('opting out stops the timer and install-on-quit, yet a manual check still works', async () => {
    const { scheduler, updater, prefs, controller } = setup();
    controller.start();
    prefs.automatic = false;
    controller.preferenceChanged();
    expect(controller.status()).toEqual({ phase: 'off' });
    expect(updater!.installOnQuit).toBe(false);
    scheduler.advance(2 * CHECK_INTERVAL_MS);
    expect(updater!.checks).toBe(0);
    updater!.feed = { version: '0.3.0' };
    expect(await controller.check()).toEqual({ phase: 'downloading', version: '0.3.0', percent: 0 });
    expect(updater!.downloads).toBe(1);
    prefs.automatic = true;
    controller.preferenceChanged();
    expect(controller.status()).toMatchObject({ phase: 'downloading' });
  });

  it('starts "off" when the person opted out before', () => {
    const { controller } = setup({ automatic: false });
    expect(controller.status()).toEqual({ phase: 'off' });
  });

  it('turns a failed check into an error state and allows another try', async () => {
    const { updater, controller } = setup();
    controller.start();
    updater!.feed = new Error('getaddrinfo ENOTFOUND github.com');
    const state = await controller.check();
    expect(state).toMatchObject({ phase: 'error', message: 'Could not reach the update server.' });
    updater!.feed = null;
    expect(await controller.check()).toMatchObject({ phase: 'up-to-date' });
    expect(updater!.checks).toBe(2);
  });

  it('does not start a second check while one runs', async () => {
    const { updater, controller } = setup();
    controller.start();
    updater!.emit({ type: 'checking' });
    await controller.check();
    expect(updater!.checks).toBe(0);
  });
});

describe('deb and rpm installs (issue 30 item 3)', () => {
  it('are updated by the package manager: the app names the version, never downloads it, never installs at quit', async () => {
    const { updater, controller } = setup({ installer: 'package-manager' });
    controller.start();
    expect(updater!.installOnQuit).toBe(false);
    updater!.feed = { version: '1.5.0' };
    expect(await controller.check()).toEqual({ phase: 'package-update', version: '1.5.0' });
    expect(updater!.downloads).toBe(0);
    expect(controller.install()).toEqual({ phase: 'package-update', version: '1.5.0' });
    expect(updater!.installs).toBe(0);
    // A later check starts over, and finds the person upgraded.
    updater!.feed = null;
    expect((await controller.check()).phase).toBe('up-to-date');
  });

  it('is decided by how this copy was installed: deb/rpm on Linux, not the AppImage, not other OSes', () => {
    expect(updateInstaller({ platform: 'linux', linuxPackage: true, appImage: false })).toBe('package-manager');
    expect(updateInstaller({ platform: 'linux', linuxPackage: false, appImage: true })).toBe('app');
    // An AppImage started from a folder that also has package-type is still the AppImage.
    expect(updateInstaller({ platform: 'linux', linuxPackage: true, appImage: true })).toBe('app');
    expect(updateInstaller({ platform: 'win32', linuxPackage: false, appImage: false })).toBe('app');
    expect(updateInstaller({ platform: 'darwin', linuxPackage: true, appImage: false })).toBe('app');
  });

  it('still downloads and installs at quit for the AppImage, Windows and macOS', async () => {
    const { updater, controller } = setup({ installer: 'app' });
    controller.start();
    expect(updater!.installOnQuit).toBe(true);
    updater!.feed = { version: '1.5.0' };
    await controller.check();
    expect(updater!.downloads).toBe(1);
  });
});
