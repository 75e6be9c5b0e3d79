/** Focus helpers for dialogs and overlays (DOM only, no framework). */

const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
  'summary',
].join(',');

/** The elements Tab reaches inside `root`, in order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (element) => !element.closest('[inert]') && element.getClientRects().length > 0,
  );
}

/**
 * Keeps Tab and Shift+Tab inside `root`. A modal <dialog> already makes the page
 * behind it inert, but Tab from its last control would leave for the browser's
 * own UI; this wraps it round instead.
 */
export function trapTab(event: KeyboardEvent, root: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const items = tabbables(root);
  if (items.length === 0) {
    event.preventDefault();
    root.focus();
    return;
  }
  const first = items[0] as HTMLElement;
  const last = items[items.length - 1] as HTMLElement;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === root)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/** Focus the element named by `selector`, else `[data-autofocus]`, else the first tabbable, else root. */
export function focusInitial(root: HTMLElement, selector?: string): void {
  const wanted =
    (selector ? root.querySelector<HTMLElement>(selector) : null) ??
    root.querySelector<HTMLElement>('[data-autofocus]') ??
    tabbables(root)[0] ??
    root;
  wanted.focus();
}

/** Where focus waits when the control that had it went away: the main region, until a view's heading takes it. */
const FOCUS_HOLDER_ID = 'content';

/**
 * A Svelte action for a view's heading (with tabindex="-1"): when the view
 * opens because the control that had focus went away (a row opened its
 * policy, a back button, the command palette), focus lands on the heading
 * instead of the page's start, so keyboard and screen-reader users carry on
 * from the new view's top. Focus the user placed elsewhere (the navigation
 * bar) is left alone.
 *
 * `ready` (default true) holds the move while the view is still being built: focus() makes the browser lay the page
 * out there and then, so the overview moves it once its figures (or its failure) are painted, not over its
 * skeleton (the project's CI caught a layout of the half-built overview; moving after the first painted frame, or
 * in a resize observer's first answer, still met the mount's later changes). Other views move at once, as before.
 */
export function focusIfLost(node: HTMLElement, ready: boolean = true): { update(ready: boolean): void; destroy(): void } {
  let moved = false;
  const move = () => {
    if (moved) return;
    moved = true;
    window.removeEventListener('keydown', move, true);
    const active = document.activeElement;
    if (!node.isConnected) return;
    if (!active || active === document.body || active.id === FOCUS_HOLDER_ID) node.focus({ preventScroll: true });
  };
  // A key pressed while the move is held goes on from the heading, as it would with the move made at once: from the
  // body, Tab went to the control before the heading and the move was then dropped (review17). Captured on the
  // window, so the move comes before the key's handlers and its default action.
  window.addEventListener('keydown', move, true);
  if (ready) queueMicrotask(move);
  return {
    update(isReady) {
      if (isReady && !moved) queueMicrotask(move);
    },
    destroy() {
      window.removeEventListener('keydown', move, true);
    },
  };
}
