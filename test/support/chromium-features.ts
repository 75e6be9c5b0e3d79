/**
 * The `--disable-features` the browser suite starts Chromium with (playwright.config.ts).
 *
 * Chromium 156 in headless mode still builds its own window furniture for every page, and the omnibox's popup is a
 * WebUI page of its own: a "top chrome" renderer (lit, the composebox) started for each new browser context, that
 * is for every test, though no test ever opens the address bar. It was about 0.6 CPU-s a test, a sixth of a browser
 * lane (suite13, docs/testing.md). These three features turn it off; the page under test is drawn exactly as before.
 *
 * Chromium reads only the last `--disable-features` on its command line (a later one replaces an earlier one, it
 * does not add to it), and Playwright passes its own list first. So this list repeats every feature Playwright
 * turns off; test/unit/chromium-features.test.ts fails, naming them, when a Playwright upgrade adds to its list.
 */

/** What Playwright turns off itself (playwright-core, server/chromium/chromiumSwitches.ts), kept as it is. */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/** The omnibox popup's WebUI renderer, started for every browser context (the address bar no test uses). */
export const UNUSED_BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'] as const;

/** The one `--disable-features` switch, after Playwright's own, that keeps Playwright's and adds ours. */
export const DISABLE_FEATURES_ARG = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_BROWSER_UI_FEATURES].join(',')}`;
