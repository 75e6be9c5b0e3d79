/**
 * A Svelte action for a view's heading (with tabindex="-1"): when the view
 * opens because the control that had focus went away (a row opened its
 * policy, a back button), focus lands on the heading instead of the page's
 * start, so keyboard and screen-reader users carry on from the new view's top.
 * Focus the user placed elsewhere (the navigation bar) is left alone.
 */
export function focusIfLost(node: HTMLElement): void {
  queueMicrotask(() => {
    const active = document.activeElement;
    if (!active || active === document.body) node.focus({ preventScroll: true });
  });
}
