import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rect, WindowState } from '../../../electron/services/desktop/window-placement.js';
import { SAVE_DELAY_MS, WindowStateKeeper, type MeasurableWindow } from '../../../electron/services/desktop/window-state-keeper.js';
import { WINDOW_STATE_FILE, WindowStateStore } from '../../../electron/services/desktop/window-state-store.js';
import { ManualScheduler } from './manual-scheduler.js';

class FakeWindow implements MeasurableWindow {
  bounds: Rect = { x: 10, y: 20, width: 1000, height: 700 };
  maximized = false;
  fullScreen = false;
  getNormalBounds = () => this.bounds;
  isMaximized = () => this.maximized;
  isFullScreen = () => this.fullScreen;
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-window-state-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('window state store', () => {
  it('round-trips the state through the data folder, asynchronously and at close', async () => {
    const store = new WindowStateStore(dataDir);
    expect(await store.load()).toBeNull();
    const state: WindowState = { x: -300, y: 40, width: 1200, height: 760, maximized: true, fullScreen: false };
    await store.save(state);
    expect(await new WindowStateStore(dataDir).load()).toEqual(state);
    store.saveNow({ ...state, maximized: false });
    expect(await new WindowStateStore(dataDir).load()).toEqual({ ...state, maximized: false });
  });

  it('treats a damaged or foreign file as "nothing saved"', async () => {
    await writeFile(join(dataDir, WINDOW_STATE_FILE), '{"x": 1, "y": 2, "width": -5');
    expect(await new WindowStateStore(dataDir).load()).toBeNull();
    await writeFile(join(dataDir, WINDOW_STATE_FILE), JSON.stringify({ x: 1, y: 2, width: 'wide', height: 3, maximized: false, fullScreen: false }));
    expect(await new WindowStateStore(dataDir).load()).toBeNull();
  });
});

describe('window state keeper', () => {
  it('writes once after a burst of moves settles, with the last geometry', () => {
    const scheduler = new ManualScheduler();
    const saves: WindowState[] = [];
    const keeper = new WindowStateKeeper({ save: async (state) => void saves.push(state), saveNow: () => undefined }, scheduler);
    const window = new FakeWindow();
    for (let x = 0; x < 30; x++) {
      window.bounds = { ...window.bounds, x };
      keeper.changed(window);
      scheduler.advance(50);
    }
    expect(saves).toEqual([]);
    scheduler.advance(SAVE_DELAY_MS);
    expect(saves).toEqual([{ x: 29, y: 20, width: 1000, height: 700, maximized: false, fullScreen: false }]);
  });

  it('keeps the normal bounds while maximised, and saves at close without waiting', async () => {
    const scheduler = new ManualScheduler();
    const store = new WindowStateStore(dataDir);
    const keeper = new WindowStateKeeper(store, scheduler);
    const window = new FakeWindow();
    window.maximized = true;
    keeper.changed(window);
    keeper.closing(window);
    expect(await store.load()).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true, fullScreen: false });
    expect(scheduler.pending).toBe(0);
    expect(JSON.parse(await readFile(join(dataDir, WINDOW_STATE_FILE), 'utf8'))).toMatchObject({ maximized: true });
  });

  it('reports a failed write instead of throwing into the window event', () => {
    const errors: unknown[] = [];
    const keeper = new WindowStateKeeper(
      {
        save: () => Promise.reject(new Error('disk full')),
        saveNow: () => {
          throw new Error('read-only');
        },
      },
      new ManualScheduler(),
      (error) => errors.push(error),
    );
    expect(() => keeper.closing(new FakeWindow())).not.toThrow();
    expect(errors).toHaveLength(1);
  });
});
