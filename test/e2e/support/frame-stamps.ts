import type { Page } from '@playwright/test';

/**
 * Stamps each DOM change inside any of `selectors` with the animation frame it came in (a counter that every frame
 * advances), so a test can say that one change waited for the frame after another without timing anything.
 * Read the stamps with `frameStamps`. Strings, not functions: the specs are typed for Node, not the DOM.
 */
export async function stampFrames(page: Page, selectors: readonly string[]): Promise<void> {
  await page.evaluate(`(() => {
    const stamps = { frame: 0, at: Object.fromEntries(${JSON.stringify(selectors)}.map((selector) => [selector, []])) };
    window.__frameStamps = stamps;
    const tick = () => {
      stamps.frame += 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new MutationObserver((records) => {
      for (const record of records) {
        const at = record.target instanceof Element ? record.target : record.target.parentElement;
        if (!at) continue;
        for (const selector of Object.keys(stamps.at)) if (at.closest(selector)) stamps.at[selector].push(stamps.frame);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
}

/** The frames of the changes inside each selector given to `stampFrames`, in the order they came. */
export async function frameStamps(page: Page): Promise<Record<string, number[]>> {
  return (await page.evaluate('window.__frameStamps.at')) as Record<string, number[]>;
}
