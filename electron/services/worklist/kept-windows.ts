import type { WorklistWindow } from '../../../shared/ipc/worklist.js';
import { keptAnswer } from '../ipc/kept-answers.js';

/** What a worklist answer was made from: it is answered again only while each part is the very same. */
export interface WindowSources {
  /** The copy's file as read (a copy opened again starts its versions afresh), its list's commits, when its list was fetched. */
  readonly copy: object;
  readonly version: string;
  readonly fetchedAt: string;
  /** The account manager's entries: the same map while none changed (worklist-states.ts). */
  readonly entries: object;
  /** The customer namer: the same while it names every account as before (customer-handlers.ts). */
  readonly customerOf: object;
  /** The local day snoozes are counted against. */
  readonly today: string;
}

/** The filters a person switches between, each with its first page: a few answers of up to a page each. */
const KEPT_AT_MOST = 8;

interface Kept {
  readonly sources: WindowSources;
  /** The `now` it was made at, and the first moment a policy's launch or end passes into or out of its window. */
  readonly fromMs: number;
  readonly untilMs: number;
  readonly window: WorklistWindow;
}

/**
 * The worklist's last answers, per query (issue 28): opening the Renewals
 * again, or after a filter was tried, answers from memory without reading or
 * joining anything, while the copy, the entries, the customer book, the day
 * and every policy's place in the window stay as they were.
 */
export class KeptWindows {
  readonly #kept = new Map<string, Kept>();

  find(query: string, sources: WindowSources, nowMs: number): WorklistWindow | null {
    this.#dropOtherCopies(sources.copy);
    const kept = this.#kept.get(query);
    if (!kept) return null;
    if (nowMs < kept.fromMs || nowMs >= kept.untilMs || !sameSources(kept.sources, sources)) {
      this.#kept.delete(query);
      return null;
    }
    return kept.window;
  }

  /**
   * Answers of another copy (another owner's, or a copy opened again) are never given again, so they are not kept
   * either: a signed-out owner's policies and notes leave the main process's memory at the next owner's first ask.
   */
  #dropOtherCopies(copy: object): void {
    for (const [query, kept] of this.#kept) if (kept.sources.copy !== copy) this.#kept.delete(query);
  }

  keep(query: string, sources: WindowSources, fromMs: number, untilMs: number, window: WorklistWindow): void {
    this.#dropOtherCopies(sources.copy);
    this.#kept.delete(query);
    // Given again as it is: frozen, and checked by the channel's output schema at its first send only.
    this.#kept.set(query, { sources, fromMs, untilMs, window: keptAnswer(window) });
    // The oldest goes first (a Map keeps the order things were set in).
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= KEPT_AT_MOST) break;
      this.#kept.delete(oldest);
    }
  }
}

function sameSources(a: WindowSources, b: WindowSources): boolean {
  return a.copy === b.copy && a.version === b.version && a.fetchedAt === b.fetchedAt && a.entries === b.entries && a.customerOf === b.customerOf && a.today === b.today;
}
