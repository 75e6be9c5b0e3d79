import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DISABLE_FEATURES_ARG, PLAYWRIGHT_DISABLED_FEATURES, UNUSED_BROWSER_UI_FEATURES } from '../support/chromium-features.js';

/**
 * The browser suite's `--disable-features` replaces Playwright's own (Chromium reads only the last one on its command
 * line): it must still turn off everything Playwright does, or a Playwright upgrade would quietly turn features back
 * on that Playwright relies on being off (HTTPS upgrades of the loopback hosts, paint holding, ...).
 */
function playwrightDisabledFeatures(): string[] {
  const bundle = readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1];
  if (list === undefined) throw new Error("playwright-core's list of disabled Chromium features was not found: read chromiumSwitches.ts of this version");
  // The list's comments name issues and features in prose; only its string literals are entries.
  return [...list.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
}

describe('the browser suite’s Chromium features', () => {
  it('keeps every feature Playwright turns off', () => {
    const playwrights = playwrightDisabledFeatures();
    expect(playwrights.length).toBeGreaterThan(5);
    expect(playwrights.filter((feature) => !(PLAYWRIGHT_DISABLED_FEATURES as readonly string[]).includes(feature))).toEqual([]);
  });

  it('is one switch with Playwright’s features and the unused omnibox popup’s', () => {
    const features = DISABLE_FEATURES_ARG.replace(/^--disable-features=/, '').split(',');
    expect(features).toEqual([...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_BROWSER_UI_FEATURES]);
  });
});
