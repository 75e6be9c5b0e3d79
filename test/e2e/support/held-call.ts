import type { Page } from '@playwright/test';

/** A channel's calls from the page held until `release()`: `held()` says whether one has come. */
export interface HeldCall {
  held(): boolean;
  release(): void;
}

/**
 * Holds every call the page makes on `channel` (e.g. 'capacity.list') until released, so a test can look at the page
 * while an answer is on its way; calls after the release go through at once.
 */
export async function holdCalls(page: Page, channel: string): Promise<HeldCall> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  await page.route(`**/ipc/${channel}`, async (route) => {
    held = true;
    await released;
    // The page may be gone by then (a test that ended first): nothing to answer.
    await route.continue().catch(() => undefined);
  });
  return { held: () => held, release: () => release() };
}
