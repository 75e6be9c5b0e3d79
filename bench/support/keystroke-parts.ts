import type { Page } from '@playwright/test';

/**
 * One search keystroke taken apart in the page (issue 25, branch keys8): from its keydown's timestamp to the
 * input event's handler, the `capacity.list` request's start, its first byte (the host's own work), its last
 * byte, the table no longer busy (the answer parsed and the DOM updated by Svelte) and the frame painted after
 * it (rAF, then a task). All on the page's clock; resource timings give the request's parts.
 */
export interface KeyParts {
  readonly toInput: number;
  readonly toRequest: number;
  readonly host: number;
  readonly download: number;
  readonly toUpdated: number;
  readonly toPaint: number;
  readonly total: number;
}

/** Installs the recorder once per page (keys are read by takeKeyParts). */
export async function startKeyParts(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    if (window.__keyParts) return;
    const state = { keys: [], current: null };
    window.__keyParts = state;
    const search = () => document.querySelector('[data-testid="list-search"]');
    const table = () => document.querySelector('[data-testid="capacity-table"]');
    document.addEventListener('keydown', (event) => { if (event.target === search()) state.current = { down: event.timeStamp }; }, true);
    document.addEventListener('input', (event) => {
      if (event.target !== search() || !state.current) return;
      state.current.input = performance.now();
      state.current.sawBusy = false;
    }, true);
    new MutationObserver(() => {
      const key = state.current;
      if (!key || key.input === undefined || key.updated !== undefined) return;
      const busy = !table() || table().getAttribute('aria-busy') === 'true';
      if (busy) { key.sawBusy = true; return; }
      if (!key.sawBusy) return;
      key.updated = performance.now();
      requestAnimationFrame(() => setTimeout(() => {
        key.painted = performance.now();
        const request = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/ipc/capacity.list') && entry.startTime >= key.input);
        if (request) Object.assign(key, { start: request.startTime, first: request.responseStart, end: request.responseEnd });
        state.keys.push(key);
        state.current = null;
        performance.clearResourceTimings();
      }, 0));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  })()`);
}

/** The keys recorded since the last call, taken apart; a key with no request seen is left out. */
export async function takeKeyParts(page: Page): Promise<KeyParts[]> {
  const keys = (await page.evaluate(`(() => { const taken = window.__keyParts.keys; window.__keyParts.keys = []; return taken; })()`)) as Array<Record<string, number | undefined>>;
  return keys.flatMap((k) => {
    const { down, input, start, first, end, updated, painted } = k;
    if ([down, input, start, first, end, updated, painted].some((v) => v === undefined)) return [];
    const n = (v: number | undefined) => v as number;
    return [
      {
        toInput: n(input) - n(down),
        toRequest: n(start) - n(input),
        host: n(first) - n(start),
        download: n(end) - n(first),
        toUpdated: n(updated) - n(end),
        toPaint: n(painted) - n(updated),
        total: n(painted) - n(down),
      },
    ];
  });
}
