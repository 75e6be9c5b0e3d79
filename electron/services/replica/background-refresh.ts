import type { Logger } from '../logging/file-logger.js';

export interface BackgroundRefreshDeps {
  /** Minutes between refreshes; 0 refreshes at sign-in only. */
  readonly intervalMinutes: () => number;
  readonly signedIn: () => boolean;
  /** When the replica's list was last fetched (ISO), or null when there is none. */
  readonly lastFetchedAt: () => Promise<string | null>;
  readonly sync: () => Promise<unknown>;
  readonly logger: Logger;
  readonly now?: () => number;
  /** How often to look whether a refresh is due. */
  readonly checkEveryMs?: number;
}

/**
 * Keeps the local replica filled and fresh while the user is signed in: it is
 * filled when there is none, refreshed at each sign-in, and refreshed again at
 * the interval chosen in Preferences (it looks every minute whether the copy
 * is older than that). One at a time, never while another sync runs.
 */
export class BackgroundRefresh {
  #timer: ReturnType<typeof setInterval> | null = null;
  #running = false;
  #stopped = false;
  /** The looks under way (and their syncs), which stop waits for. */
  readonly #looks = new Set<Promise<boolean>>();
  readonly #now: () => number;

  constructor(private readonly deps: BackgroundRefreshDeps) {
    this.#now = deps.now ?? Date.now;
  }

  start(): void {
    void this.stop();
    this.#stopped = false;
    this.#timer = setInterval(() => void this.tick(), this.deps.checkEveryMs ?? 60_000);
    this.#timer.unref?.();
  }

  /**
   * No new refresh starts after this, not even one whose look is under way; resolves once the look under way
   * has ended (a sync it started ends when the replica's refresh is stopped: the app stops that too).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await Promise.allSettled(this.#looks);
  }

  /** One look: syncs when due (always after a sign-in). Returns whether it synced. */
  tick(reason: 'interval' | 'sign-in' = 'interval'): Promise<boolean> {
    if (this.#running || !this.deps.signedIn()) return Promise.resolve(false);
    const look = this.#look(reason).finally(() => this.#looks.delete(look));
    this.#looks.add(look);
    return look;
  }

  async #look(reason: 'interval' | 'sign-in'): Promise<boolean> {
    const minutes = this.deps.intervalMinutes();
    const last = await this.deps.lastFetchedAt();
    const due = !last || reason === 'sign-in' || (minutes > 0 && this.#now() - Date.parse(last) >= minutes * 60_000);
    if (!due || this.#stopped) return false;
    this.#running = true;
    try {
      await this.deps.sync();
      this.deps.logger.info('replica', `refresh done (${reason})`);
      return true;
    } catch (error) {
      // A conflict means the user's own sync is running; anything else is retried at the next look.
      this.deps.logger.warn('replica', `refresh failed (${reason})`, error);
      return false;
    } finally {
      this.#running = false;
    }
  }
}
