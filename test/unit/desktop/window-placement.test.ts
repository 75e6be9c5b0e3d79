import { describe, expect, it } from 'vitest';
import { MAIN_WINDOW_LIMITS } from '../../../electron/services/desktop/app-identity.js';
import { placeWindow, WindowState, type DisplayArea } from '../../../electron/services/desktop/window-placement.js';

const laptop: DisplayArea = { workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const rightMonitor: DisplayArea = { workArea: { x: 1440, y: 0, width: 2560, height: 1400 } };
const leftMonitor: DisplayArea = { workArea: { x: -1920, y: 0, width: 1920, height: 1040 } };

const saved = (state: Partial<WindowState>): WindowState => ({
  x: 100,
  y: 100,
  width: 1100,
  height: 700,
  maximized: false,
  fullScreen: false,
  ...state,
});

describe('window placement', () => {
  it('opens at the default size, centred by the OS, when nothing was saved', () => {
    expect(placeWindow(null, [laptop], laptop, MAIN_WINDOW_LIMITS)).toEqual({ width: 1280, height: 800, maximized: false, fullScreen: false });
  });

  it('reopens exactly where it was when that place is still on a display', () => {
    const state = saved({ x: 200, y: 80, width: 1000, height: 650 });
    expect(placeWindow(state, [laptop], laptop, MAIN_WINDOW_LIMITS)).toEqual(state);
  });

  it('keeps a window on the secondary display it was left on, negative coordinates included', () => {
    const onRight = saved({ x: 2000, y: 200, width: 1600, height: 1000 });
    expect(placeWindow(onRight, [laptop, rightMonitor], laptop, MAIN_WINDOW_LIMITS)).toMatchObject({ x: 2000, y: 200, width: 1600, height: 1000 });
    const onLeft = saved({ x: -1500, y: 50 });
    expect(placeWindow(onLeft, [leftMonitor, laptop], laptop, MAIN_WINDOW_LIMITS)).toMatchObject({ x: -1500, y: 50 });
  });

  it('moves a window whose monitor was unplugged to the centre of the primary display', () => {
    const onRight = saved({ x: 2000, y: 200, width: 1200, height: 800 });
    expect(placeWindow(onRight, [laptop], laptop, MAIN_WINDOW_LIMITS)).toEqual({
      x: 120,
      y: 63,
      width: 1200,
      height: 800,
      maximized: false,
      fullScreen: false,
    });
  });

  it('shrinks a window larger than the display now is, and keeps it inside the work area', () => {
    const big = saved({ x: 1500, y: 0, width: 2500, height: 1350 });
    const placed = placeWindow(big, [laptop, rightMonitor], laptop, MAIN_WINDOW_LIMITS);
    expect(placed).toMatchObject({ x: 1500, y: 0, width: 2500, height: 1350 });
    const afterResolutionDrop: DisplayArea = { workArea: { x: 1440, y: 0, width: 1920, height: 1040 } };
    expect(placeWindow(big, [laptop, afterResolutionDrop], laptop, MAIN_WINDOW_LIMITS)).toMatchObject({
      x: 1440,
      y: 0,
      width: 1920,
      height: 1040,
    });
  });

  it('pulls a window that hangs off an edge back fully on screen', () => {
    const hanging = saved({ x: 1200, y: 600, width: 1000, height: 700 });
    expect(placeWindow(hanging, [laptop], laptop, MAIN_WINDOW_LIMITS)).toMatchObject({ x: 440, y: 200, width: 1000, height: 700 });
  });

  it('treats a sliver left on screen as lost', () => {
    const sliver = saved({ x: 1440 - 60, y: 100, width: 1000, height: 700 });
    const placed = placeWindow(sliver, [laptop], laptop, MAIN_WINDOW_LIMITS);
    expect(placed).toMatchObject({ x: 220, y: 113 });
  });

  it('enforces the minimum size, except on a screen smaller than it', () => {
    expect(placeWindow(saved({ width: 300, height: 200 }), [laptop], laptop, MAIN_WINDOW_LIMITS)).toMatchObject({ width: 900, height: 600 });
    const tiny: DisplayArea = { workArea: { x: 0, y: 0, width: 800, height: 560 } };
    expect(placeWindow(null, [tiny], tiny, MAIN_WINDOW_LIMITS)).toMatchObject({ width: 800, height: 560 });
  });

  it('carries the maximised and full-screen state over', () => {
    expect(placeWindow(saved({ maximized: true }), [laptop], laptop, MAIN_WINDOW_LIMITS).maximized).toBe(true);
    expect(placeWindow(saved({ fullScreen: true, x: 9000 }), [laptop], laptop, MAIN_WINDOW_LIMITS).fullScreen).toBe(true);
  });

  it('rejects saved state that is not a window geometry', () => {
    expect(WindowState.safeParse({ x: 1, y: 2, width: 0, height: 10, maximized: false, fullScreen: false }).success).toBe(false);
    expect(WindowState.safeParse({ x: 'left', y: 2, width: 10, height: 10, maximized: false, fullScreen: false }).success).toBe(false);
    expect(WindowState.safeParse({ x: 1.5, y: 2, width: 10, height: 10, maximized: false, fullScreen: false }).success).toBe(false);
    expect(WindowState.safeParse({ x: 1e9, y: 2, width: 10, height: 10, maximized: false, fullScreen: false }).success).toBe(false);
  });
});
