import type { UpdateState } from '../../../shared/ipc/desktop.js';
import type { Cancel, Scheduler } from './scheduler.js';
import type { UpdateInstaller } from './update-availability.js';
import { nextUpdateState, shortMessage, type UpdaterEvent } from './update-state.js';

/** The updater as the controller drives it; electron-updater's autoUpdater in the app. */
export interface UpdaterPort {
  check(): Promise<void>;
  download(): Promise<void>;
  /** Quits and runs the downloaded update's installer. */
  quitAndInstall(): void;
  /** Whether a downloaded update installs by itself when the app quits. */
  setInstallOnQuit(enabled: boolean): void;
  subscribe(listener: (event: UpdaterEvent) => void): () => void;
}

export interface UpdateControllerDeps {
  /** Null where the host or build cannot update itself; `unavailableReason` says why. */
  readonly updater: UpdaterPort | null;
  readonly unavailableReason: string;
  /** The person's preference: automatic checks, downloads and install on quit. */
  readonly automatic: () => boolean;
  readonly scheduler: Scheduler;
  readonly onChange: (state: UpdateState) => void;
  /** deb/rpm installs: report a new version, never download or install it (update-availability.ts). Default 'app'. */
  readonly installer?: UpdateInstaller;
}

/** Let the app settle before the first check; then look a few times a day. */
export const FIRST_CHECK_DELAY_MS = 10_000;
export const CHECK_INTERVAL_MS = 6 * 60 * 60_000;

const RESTING = new Set<UpdateState['phase']>(['off', 'idle', 'up-to-date', 'error', 'package-update']);

/**
 * Drives updates from the publish feed (GitHub releases): checks on a timer
 * when automatic updates are on, on request either way, downloads what it
 * finds, and installs on restart. The state is pushed to the renderer on every
 * change.
 */
export class UpdateController {
  #state: UpdateState;
  #timers: Cancel[] = [];
  #unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: UpdateControllerDeps) {
    this.#state = deps.updater ? (deps.automatic() ? { phase: 'idle' } : { phase: 'off' }) : { phase: 'unavailable', reason: deps.unavailableReason };
  }

  status(): UpdateState {
    return this.#state;
  }

  start(): void {
    const updater = this.deps.updater;
    if (!updater || this.#unsubscribe) return;
    this.#unsubscribe = updater.subscribe((event) => this.#apply(event));
    this.preferenceChanged();
  }

  /** Automatic updates were turned on or off. */
  preferenceChanged(): void {
    const updater = this.deps.updater;
    if (!updater) return;
    for (const cancel of this.#timers) cancel();
    this.#timers = [];
    const automatic = this.deps.automatic();
    // A package install is never installed by the app, at quit or otherwise.
    updater.setInstallOnQuit(automatic && this.#byApp());
    if (automatic) {
      this.#timers.push(
        this.deps.scheduler.after(FIRST_CHECK_DELAY_MS, () => void this.check()),
        this.deps.scheduler.every(CHECK_INTERVAL_MS, () => void this.check()),
      );
      if (this.#state.phase === 'off') this.#set({ phase: 'idle' });
    } else if (RESTING.has(this.#state.phase)) {
      this.#set({ phase: 'off' });
    }
  }

  /** A check now (the menu or the status button); resolves to the state once it settles. */
  async check(): Promise<UpdateState> {
    const updater = this.deps.updater;
    if (!updater || !RESTING.has(this.#state.phase)) return this.#state;
    this.#set(nextUpdateState(this.#state, { type: 'checking' }, this.deps.scheduler.now()));
    try {
      await updater.check();
    } catch (error) {
      this.#apply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
    return this.#state;
  }

  /** Restarts into the downloaded version; only when one is ready. */
  install(): UpdateState {
    if (this.#state.phase === 'ready' && this.#byApp()) this.deps.updater?.quitAndInstall();
    return this.#state;
  }

  stop(): void {
    for (const cancel of this.#timers) cancel();
    this.#timers = [];
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #byApp(): boolean {
    return (this.deps.installer ?? 'app') === 'app';
  }

  #apply(event: UpdaterEvent): void {
    if (event.type === 'available' && !this.#byApp()) {
      this.#set({ phase: 'package-update', version: event.version });
      return;
    }
    const next = nextUpdateState(this.#state, event, this.deps.scheduler.now());
    // A manual check while automatic updates are off still downloads what was asked for.
    if (event.type === 'available' && this.#state.phase !== 'downloading') {
      this.deps.updater?.download().catch((error: unknown) => {
        this.#apply({ type: 'error', message: error instanceof Error ? error.message : shortMessage(String(error)) });
      });
    }
    this.#set(next);
  }

  #set(state: UpdateState): void {
    if (JSON.stringify(state) === JSON.stringify(this.#state)) return;
    this.#state = state;
    this.deps.onChange(state);
  }
}
