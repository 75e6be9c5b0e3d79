import type { ServiceCheck } from '../../../shared/ipc/sourced.js';
import type { Logger } from '../logging/file-logger.js';

/** Between checks while the service answers, unless a read heard from it meanwhile (then none is needed). */
// 30 s, not less: a session reading only the copy asks at most 120 small reads an hour of the real service.
export const UP_CHECK_EVERY_MS = 30_000;
/** Between checks while it cannot be reached: soon at first (a blip), then less and less often. */
export const DOWN_CHECK_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 15_000, 30_000];

export interface ServiceWatchDeps {
  /**
   * Asks the service something small (never the local copy): true when it answered (whatever it said), false when
   * it could not be reached. Throws for nothing but a fault of the app.
   */
  readonly probe: () => Promise<boolean>;
  /** Whether asking makes sense now: signed in, not working offline by choice nor reviewing without a session. */
  readonly active: () => boolean;
  /**
   * Who is signed in, and where (any text that changes with the environment, the user or the sign-in): a check whose
   * session changed while it waited says nothing of the new one (environment A away is not B away; review14).
   */
  readonly session?: () => string;
  /** The service went away or came back (and, while it is away, each check's answer: a window opened since learns it). */
  readonly onChange: (state: ServiceCheck) => void;
  readonly logger: Logger;
  readonly upCheckEveryMs?: number;
  readonly downDelaysMs?: readonly number[];
  readonly now?: () => number;
}

/**
 * Notices on its own that the service went away or came back (day13: the app said nothing until a view asked).
 * It hears every live read's outcome (the repository's breaker tells it), and when nothing was heard for a while
 * it checks: every 30 s while the service answers, and with a growing wait while it does not. Logs only the
 * change itself, never a request, a URL's query or a token.
 */
export class ServiceWatch {
  /** null until the first outcome. */
  #reachable: boolean | null = null;
  #lastHeard = 0;
  /** When a check last started (or found nothing to do): the next one is timed from it too, never in a loop. */
  #lastLook = 0;
  #downStep = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #checking: Promise<void> | null = null;
  #stopped = true;
  readonly #now: () => number;
  readonly #upEvery: number;
  readonly #downDelays: readonly number[];

  constructor(private readonly deps: ServiceWatchDeps) {
    this.#now = deps.now ?? Date.now;
    this.#upEvery = deps.upCheckEveryMs ?? UP_CHECK_EVERY_MS;
    this.#downDelays = deps.downDelaysMs ?? DOWN_CHECK_DELAYS_MS;
  }

  /** What was last heard: true answered, false could not be reached, null not yet known. */
  get reachable(): boolean | null {
    return this.#reachable;
  }

  start(): void {
    this.#stopped = false;
    // Its first check is one wait after the start, not at once: at launch it would be a request beside the first
    // screen's work (host CPU to the overview's paint +140 ms at load 4-5), and the sign-in's refresh is heard anyway.
    this.#lastLook = this.#now();
    this.#schedule();
  }

  /** No check starts after this; resolves once the one under way has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clear();
    await this.#checking;
  }

  /**
   * A live read answered or could not reach the service. A check's own outcome comes through here once (the
   * breaker hears it too while the check runs: not counted twice).
   */
  heard(reachable: boolean): void {
    if (this.#checking) return;
    this.#outcome(reachable);
  }

  /** Checks now (tests, and a session that just began); the next check is timed from its outcome. */
  checkNow(): Promise<void> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = null;
      this.#schedule();
    });
    return this.#checking;
  }

  async #check(): Promise<void> {
    this.#lastLook = this.#now();
    if (!this.deps.active()) return;
    const session = this.deps.session?.();
    let reachable: boolean;
    try {
      reachable = await this.deps.probe();
    } catch (error) {
      this.deps.logger.warn('network', 'the service check failed', error);
      return;
    }
    if (!this.#stopped && this.deps.active() && this.deps.session?.() === session) this.#outcome(reachable);
  }

  #outcome(reachable: boolean): void {
    this.#lastHeard = this.#now();
    const changed = reachable !== this.#reachable;
    this.#downStep = reachable ? 0 : changed ? 0 : this.#downStep + 1;
    this.#reachable = reachable;
    if (changed) this.deps.logger.info('network', reachable ? 'the service answers' : 'the service cannot be reached');
    if (changed || !reachable) this.deps.onChange({ reachable, checkedAt: new Date(this.#lastHeard).toISOString() });
    if (!this.#checking) this.#schedule();
  }

  #schedule(): void {
    this.#clear();
    if (this.#stopped) return;
    const delay =
      this.#reachable === false
        ? (this.#downDelays[Math.min(this.#downStep, this.#downDelays.length - 1)] ?? this.#upEvery)
        : Math.max(0, this.#upEvery - (this.#now() - Math.max(this.#lastHeard, this.#lastLook)));
    this.#timer = setTimeout(() => void this.checkNow(), delay);
    this.#timer.unref?.();
  }

  #clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
