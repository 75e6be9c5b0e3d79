import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on the page, run inside the page itself (@axe-core/playwright's legacy mode).
 *
 * The default mode opens a new blank tab for every analysis to merge the frames' results
 * there, and injects axe's 500 kB source into it: a new renderer process each time. On this
 * 2-core machine one analysis of the capacity list took 6.4-9.5 s that way and 2.1-3.5 s in the
 * page, with the same rules passed, incomplete and inapplicable (load 16-19). What legacy mode
 * gives up is cross-origin frames, and the app has no frames at all; should one appear, this
 * says so instead of leaving it unchecked.
 */
export function axeOn(page: Page): AxeBuilder {
  expect(page.frames(), 'axe runs inside the page, which checks no frames: the app has none').toHaveLength(1);
  return new AxeBuilder({ page }).setLegacyMode();
}
