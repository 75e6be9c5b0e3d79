import AxeBuilder from '@axe-core/playwright';
import axeCore from 'axe-core';
import { expect, test, type Page } from '@playwright/test';

/**
 * axe's 500 kB source, sent to the page only where the page has no axe yet. AxeBuilder evaluates the source it is
 * given twice per analysis (once to look for runPartial, once to inject it): given the whole source behind a guard,
 * the page still received and parsed all 500 kB twice per analysis, a no-op each time after the first (330-500 ms of
 * the 0.9-1.6 s analyses of the cyber-terminate test at load 41). So the builder is given a no-op instead, and the
 * source is evaluated once, before an analysis of a page that has none; a page already checked runs the same axe
 * again on the page as it is now (axe keeps no results between runs). Should the page lose its axe between that
 * look and the run (a navigation), the run fails on the missing axe rather than checking nothing.
 */
const AXE_IN_PAGE_ALREADY = 'void 0';

class AxeInPage extends AxeBuilder {
  constructor(private readonly target: Page) {
    super({ page: target, axeSource: AXE_IN_PAGE_ALREADY });
  }

  override async analyze(): ReturnType<AxeBuilder['analyze']> {
    if (await this.target.evaluate('typeof window.axe === "undefined"')) await this.target.evaluate(axeCore.source);
    return super.analyze();
  }
}

/**
 * axe-core on the page, run inside the page itself (@axe-core/playwright's legacy mode).
 *
 * The default mode opens a new blank tab for every analysis to merge the frames' results
 * there, and injects axe's 500 kB source into it: a new renderer process each time. On this
 * 2-core machine one analysis of the capacity list took 6.4-9.5 s that way and 2.1-3.5 s in the
 * page, with the same rules passed, incomplete and inapplicable (load 16-19). What legacy mode
 * gives up is cross-origin frames, and the app has no frames at all; should one appear, this
 * says so instead of leaving it unchecked.
 *
 * Every check reads the violations alone, so only they are reported node by node (`resultTypes`): the passes of
 * a filled list, each node with its HTML, made a 1.2 MB answer to serialise and parse, 54 kB without them, the
 * same violations either way. With the source evaluated once per page (AxeInPage), an analysis of the capacity
 * list took 3.6-5.1 s instead of 12-15 s (load 31-34).
 */
export function axeOn(page: Page): AxeBuilder {
  expect(page.frames(), 'axe runs inside the page, which checks no frames: the app has none').toHaveLength(1);
  return new AxeInPage(page).setLegacyMode().options({ resultTypes: ['violations'] });
}

/**
 * The axe rules whose answer can change when only the colours change: contrast, and links told apart from the text
 * around them by colour. The dark theme is CSS alone (prefers-color-scheme in renderer/styles/app.css; no script or
 * component of the renderer reads the scheme), so a dark page is the light page's DOM in other colours: a check in
 * both themes runs every rule in light and these in dark, and every other rule would answer the same twice.
 */
export const COLOUR_RULES: readonly string[] = ['color-contrast', 'link-in-text-block'];

/** axe on the page as the scheme shows it: every rule in light, the colour rules in dark (see COLOUR_RULES). */
export function axeInScheme(page: Page, colorScheme: 'light' | 'dark'): AxeBuilder {
  const builder = axeOn(page);
  return colorScheme === 'dark' ? builder.withRules([...COLOUR_RULES]) : builder;
}

/** The most one analysis may take, given to the test while it runs (then only what it took is kept). */
const ANALYSIS_BUDGET_MS = 30_000;

/**
 * One analysis, its time added to the test's timeout rather than taken from the test's steps: axe is the test's
 * own tool, and an analysis takes seconds on a loaded two-core machine (a test of a view in light and dark runs
 * four; two of them ran past 30 s at load 32-50 with every check passing).
 */
export async function analyze(builder: AxeBuilder): ReturnType<AxeBuilder['analyze']> {
  const started = Date.now();
  test.info().setTimeout(test.info().timeout + ANALYSIS_BUDGET_MS);
  try {
    return await builder.analyze();
  } finally {
    test.info().setTimeout(test.info().timeout - ANALYSIS_BUDGET_MS + (Date.now() - started));
  }
}
