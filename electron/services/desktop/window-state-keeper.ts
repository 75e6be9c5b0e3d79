import type { Cancel, Scheduler } from './scheduler.js';
import type { Rect, WindowState } from './window-placement.js';

/** The parts of a BrowserWindow whose geometry is remembered. */
export interface MeasurableWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
}

export interface WindowStateSink {
  save(state: WindowState): Promise<void>;
  saveNow(state: WindowState): void;
}

/** Quiet time after the last move or resize before the state is written. */
export const SAVE_DELAY_MS = 750;

export function measure(window: MeasurableWindow): WindowState {
  const bounds = window.getNormalBounds();
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized: window.isMaximized(),
    fullScreen: window.isFullScreen(),
  };
}

/**
 * Remembers a window's geometry: a drag fires dozens of move events, so
 * changes are written once things settle, and the close writes at once. The
 * normal bounds are kept while maximised, so un-maximising after a restart
 * returns to the size the person chose.
 */
export class WindowStateKeeper {
  #pending: Cancel | null = null;

  constructor(
    private readonly sink: WindowStateSink,
    private readonly scheduler: Scheduler,
    private readonly report: (error: unknown) => void = () => undefined,
  ) {}

  changed(window: MeasurableWindow): void {
    this.#pending?.();
    this.#pending = this.scheduler.after(SAVE_DELAY_MS, () => {
      this.#pending = null;
      this.sink.save(measure(window)).catch(this.report);
    });
  }

  closing(window: MeasurableWindow): void {
    this.#pending?.();
    this.#pending = null;
    try {
      this.sink.saveNow(measure(window));
    } catch (error) {
      this.report(error);
    }
  }
}
