import { z } from 'zod';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A display as Electron's `screen` describes it; only the usable area matters. */
export interface DisplayArea {
  readonly workArea: Rect;
}

const Pixels = z.number().int().min(-100_000).max(100_000);
const Extent = z.number().int().min(1).max(100_000);

/** The window's last normal (not maximised) bounds and its maximised/full-screen state. */
export const WindowState = z.object({
  x: Pixels,
  y: Pixels,
  width: Extent,
  height: Extent,
  maximized: z.boolean(),
  fullScreen: z.boolean(),
});
export type WindowState = z.infer<typeof WindowState>;

export interface WindowLimits {
  readonly defaultWidth: number;
  readonly defaultHeight: number;
  readonly minWidth: number;
  readonly minHeight: number;
}

/** Where to open the window. No x/y means "let the OS centre it". */
export interface Placement {
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
  readonly maximized: boolean;
  readonly fullScreen: boolean;
}

/** How much of a saved window must still be on a display to reopen it there. */
export const MIN_VISIBLE = { width: 120, height: 60 } as const;

/**
 * Reopens the window where it was if that place still exists: the displays
 * may have changed since (a monitor unplugged, a resolution lowered). The
 * window goes back to the display it overlaps most, shrunk to fit that
 * display's work area and moved fully inside it; when too little of it would
 * be visible anywhere, it opens centred on the primary display instead.
 */
export function placeWindow(
  saved: WindowState | null,
  displays: readonly DisplayArea[],
  primary: DisplayArea,
  limits: WindowLimits,
): Placement {
  if (!saved) {
    return { ...fitSize(limits.defaultWidth, limits.defaultHeight, primary.workArea, limits), maximized: false, fullScreen: false };
  }
  const target = bestDisplay(saved, displays);
  const area = (target ?? primary).workArea;
  const size = fitSize(saved.width, saved.height, area, limits);
  const state = { maximized: saved.maximized, fullScreen: saved.fullScreen };
  if (!target) return { ...size, ...centreIn(area, size), ...state };
  return {
    ...size,
    x: clamp(saved.x, area.x, area.x + area.width - size.width),
    y: clamp(saved.y, area.y, area.y + area.height - size.height),
    ...state,
  };
}

function bestDisplay(rect: Rect, displays: readonly DisplayArea[]): DisplayArea | null {
  let best: DisplayArea | null = null;
  let bestArea = 0;
  for (const display of displays) {
    const overlap = intersection(rect, display.workArea);
    if (overlap.width < MIN_VISIBLE.width || overlap.height < MIN_VISIBLE.height) continue;
    const area = overlap.width * overlap.height;
    if (area > bestArea) {
      best = display;
      bestArea = area;
    }
  }
  return best;
}

function intersection(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

/** At least the minimum size, at most the work area (which wins on a tiny screen). */
function fitSize(width: number, height: number, area: Rect, limits: WindowLimits): { width: number; height: number } {
  return {
    width: Math.min(Math.max(width, limits.minWidth), area.width),
    height: Math.min(Math.max(height, limits.minHeight), area.height),
  };
}

function centreIn(area: Rect, size: { width: number; height: number }): { x: number; y: number } {
  return {
    x: Math.round(area.x + (area.width - size.width) / 2),
    y: Math.round(area.y + (area.height - size.height) / 2),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
