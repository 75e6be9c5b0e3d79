/** The parts of Electron's `app` the single-instance lock needs. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: () => void): unknown;
}

/** The parts of a BrowserWindow needed to bring it to the front. */
export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  isVisible(): boolean;
  show(): void;
  focus(): void;
}

/** Restores, shows and focuses a window, whatever state it was left in. */
export function bringToFront(window: FocusableWindow): void {
  if (window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}

/**
 * One running copy per data folder. The first copy holds the lock and, when
 * someone launches the app again, brings its window forward (or does so as
 * soon as its window exists, if the second launch comes during start-up). A
 * later copy quits at once.
 */
export class SingleInstance {
  #window: FocusableWindow | null = null;
  #pendingFocus = false;

  constructor(private readonly app: SingleInstanceApp) {}

  /** False when another copy holds the lock; this copy has then been told to quit. */
  claim(): boolean {
    if (!this.app.requestSingleInstanceLock()) {
      this.app.quit();
      return false;
    }
    this.app.on('second-instance', () => this.#focus());
    return true;
  }

  /** The window a second launch should bring forward (the latest main window). */
  attach(window: FocusableWindow): void {
    this.#window = window;
    if (this.#pendingFocus) {
      this.#pendingFocus = false;
      bringToFront(window);
    }
  }

  #focus(): void {
    const window = this.#window;
    if (window && !window.isDestroyed()) bringToFront(window);
    else this.#pendingFocus = true;
  }
}
