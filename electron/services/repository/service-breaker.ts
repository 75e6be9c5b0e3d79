/** How long reads skip a service that did not answer, before one tries it again. */
export const SERVICE_COOL_OFF_MS = 30_000;

/**
 * Remembers that the service could not be reached, so the next reads the
 * local copy can answer do not each wait for a timeout first (30 s per read
 * on a network that swallows requests). Closed again by any live answer, by
 * an explicit check, or once the cool-off has passed.
 */
export class ServiceBreaker {
  readonly #coolOffMs: number;
  readonly #now: () => number;
  #openUntil = 0;

  readonly #heard: (reachable: boolean) => void;

  /** `heard` is told each outcome (the ServiceWatch: a live read counts as a check of the service). */
  constructor(coolOffMs = SERVICE_COOL_OFF_MS, now: () => number = Date.now, heard: (reachable: boolean) => void = () => undefined) {
    this.#coolOffMs = coolOffMs;
    this.#now = now;
    this.#heard = heard;
  }

  /** True while reads should go to the local copy first. */
  get open(): boolean {
    return this.#now() < this.#openUntil;
  }

  unreachable(): void {
    this.#openUntil = this.#now() + this.#coolOffMs;
    this.#heard(false);
  }

  answered(): void {
    this.#openUntil = 0;
    this.#heard(true);
  }
}
