/**
 * The launch's first screen built out of the document and put in whole (issue 25, branch overview18).
 *
 * At a launch the app mounts as soon as the views' kept state is in, and the overview's answer, asked a moment before
 * on the session's status, comes while the mount runs or just after it at a low load. Mounted in the document, the
 * half-built page had a frame of its own first (the overview's skeleton laid out and painted, then the wait for the
 * next frame) before the figures were rendered and painted. Mounted in the page's root taken out of the document,
 * nothing new is there to paint until the first screen is whole: the answer's figures are rendered in the task after
 * the mount and the root goes back in with them, so they come in the first frame with content.
 *
 * The root goes back as soon as the first screen is whole (the overview's figures or its failure, or any other
 * screen: `release`), and at the latest `maxMs` after it was taken out, so a slow answer shows the skeleton as before.
 */
export class FirstScreenHold {
  readonly #root: HTMLElement;
  #place: Comment | null;
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(root: HTMLElement, maxMs: number) {
    this.#root = root;
    this.#place = document.createComment('the first screen, built out of the document');
    root.replaceWith(this.#place);
    this.#timer = setTimeout(() => this.release(), maxMs);
  }

  /** True until the root is back in the document. */
  get holding(): boolean {
    return this.#place !== null;
  }

  /** Puts the root back where it was (once; later calls do nothing). */
  release(): void {
    if (!this.#place) return;
    clearTimeout(this.#timer);
    this.#place.replaceWith(this.#root);
    this.#place = null;
  }
}

/**
 * The longest the launch's first screen is held out of the document (from the mount's start): a little more than the
 * mount itself at a low load (25-40 ms of CPU, traced), so the answer that comes during it or just after it is
 * rendered before the first frame; a later answer finds the skeleton shown, as before.
 */
export const FIRST_SCREEN_HOLD_MS = 60;

let current: FirstScreenHold | null = null;

/** Takes `root` out of the document until the first screen is whole (`releaseFirstScreen`) or `maxMs` have passed. */
export function holdFirstScreen(root: HTMLElement, maxMs: number = FIRST_SCREEN_HOLD_MS): FirstScreenHold {
  current?.release();
  current = new FirstScreenHold(root, maxMs);
  return current;
}

/** The first screen is whole: its root goes back into the document now. Does nothing when none is held. */
export function releaseFirstScreen(): void {
  current?.release();
  current = null;
}
