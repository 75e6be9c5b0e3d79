import { BrowserWindow, screen } from 'electron';
import { MAIN_WINDOW_LIMITS } from '../services/desktop/app-identity.js';
import { systemScheduler } from '../services/desktop/scheduler.js';
import { bringToFront, type SingleInstance } from '../services/desktop/single-instance.js';
import { placeWindow } from '../services/desktop/window-placement.js';
import { WindowStateKeeper } from '../services/desktop/window-state-keeper.js';
import { WindowStateStore } from '../services/desktop/window-state-store.js';
import type { AppEvents } from '../services/events.js';
import type { Logger } from '../services/logging/file-logger.js';
import { installContextMenu } from './context-menu.js';
import type { UnreadableReporter } from '../services/settings/json-file.js';
import { forwardEvents } from './ipc-bridge.js';
import { watchRenderer } from './recovery.js';
import { createMainWindow } from './window.js';

export interface MainWindowsOptions {
  readonly preloadPath: string;
  readonly dataDir: string;
  readonly icon: string | undefined;
  readonly instance: SingleInstance;
  readonly events: AppEvents;
  readonly logger: Logger;
  /** Named in the box offered when the page crashes or hangs. */
  readonly logsDir: string;
  /** Told when the saved window state could not be read (it is kept aside). */
  readonly onUnreadable?: UnreadableReporter;
}

/**
 * Opens the main window where it was last left (checked against today's
 * displays), remembers its geometry, and hands it to the single-instance lock
 * so a second launch brings it forward.
 */
export class MainWindows {
  readonly #store: WindowStateStore;
  readonly #keeper: WindowStateKeeper;
  #current: BrowserWindow | null = null;

  constructor(private readonly options: MainWindowsOptions) {
    this.#store = new WindowStateStore(options.dataDir, options.onUnreadable);
    this.#keeper = new WindowStateKeeper(this.#store, systemScheduler, (error) => console.error('[window state]', error));
  }

  async open(): Promise<BrowserWindow> {
    const placement = placeWindow(await this.#store.load(), screen.getAllDisplays(), screen.getPrimaryDisplay(), MAIN_WINDOW_LIMITS);
    const window = createMainWindow(this.options.preloadPath, placement, this.options.icon);
    const changed = () => this.#keeper.changed(window);
    window.on('resize', changed);
    window.on('move', changed);
    window.on('maximize', changed);
    window.on('unmaximize', changed);
    window.on('enter-full-screen', changed);
    window.on('leave-full-screen', changed);
    window.on('close', () => this.#keeper.closing(window));
    window.on('closed', () => {
      if (this.#current === window) this.#current = null;
    });
    forwardEvents(this.options.events, window.webContents);
    installContextMenu(window);
    watchRenderer(window, this.options.logger, this.options.logsDir);
    this.options.instance.attach(window);
    this.#current = window;
    return window;
  }

  /** Brings the main window forward, opening one if none is left (macOS keeps running without). */
  focus(): void {
    if (this.#current && !this.#current.isDestroyed()) bringToFront(this.#current);
    else if (BrowserWindow.getAllWindows().length === 0) void this.open();
  }
}
