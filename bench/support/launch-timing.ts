import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AFTER_PAINT, signIn, type Host } from './app-page.js';

/**
 * A launch of the app with a replica on disk, timed from the person's action
 * to the overview's frame painted, and where that time went: the host's own
 * steps (launch-marks.ts, read through the bench probe) and the page's (its
 * navigation and resource timings), all as epoch ms on this one machine.
 */
export interface LaunchTiming {
  /** Host spawned (the app opened) to the overview's figures shown on screen (their frame). */
  readonly launch: number;
  /** The page's start (the window opening), or the Sign in click when the session was not kept, to the same frame. */
  readonly overviewCold: number;
  /**
   * The same start to the old marker (rAF, then a task, from a MutationObserver): it fires after the tasks the app
   * queued for after that frame (the overview's charts and lists, the standings, the chunks' preload), so it counts
   * them. Printed beside the frame so that nothing is hidden; not the goal's figure.
   */
  readonly afterPaintWork: number;
  /** Each step, in ms after the host was spawned. */
  readonly steps: Record<string, number>;
  /** CPU time the host used from its start to just after the paint (read once the after-paint work is done): its own work, whatever the load. */
  readonly hostCpuMs: number;
}

/** When the overview's first figures were shown, as epoch ms. */
export interface OverviewPaint {
  /** The frame in which the launching tile's figure was first painted (its Element Timing renderTime). */
  readonly frame: number;
  /** The old marker: a frame then a task after the tile was inserted, so after the work the app queued behind that frame. */
  readonly afterPaintWork: number;
}

/** The Element Timing identifier of the overview's first figure (OverviewView.svelte carries it). */
export const OVERVIEW_FIGURES_TIMING = 'overview-figures';

/**
 * Installed before the page's own scripts (page.addInitScript), for every build alike: builds made before the
 * overview carried its elementtiming attribute get it on the launching tile's figure as the tile is inserted, in
 * the microtask after its insertion, so before the frame that paints it (Chromium reads the attribute at the paint).
 */
const MARK_OVERVIEW_FIGURES = `(() => {
  const mark = () => {
    const figure = document.querySelector('[data-testid="tile-launching"] [data-testid="figure-value"]');
    if (figure && !figure.hasAttribute('elementtiming')) figure.setAttribute('elementtiming', ${JSON.stringify(OVERVIEW_FIGURES_TIMING)});
    return figure !== null;
  };
  const observer = new MutationObserver(() => { if (mark()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true });
})()`;

/** Readies `page` (before it navigates) to time the overview's figures by their own frame. */
export async function timeOverviewFrames(page: Page): Promise<void> {
  await page.addInitScript(MARK_OVERVIEW_FIGURES);
}

/**
 * From the page's start (or the action given) to the overview's figures shown: the frame that painted them, and the
 * old marker. The page must have been readied with timeOverviewFrames.
 */
export async function overviewPaintedAt(page: Page): Promise<OverviewPaint> {
  return (await firstScreenShown(page, false)) as OverviewPaint;
}

/**
 * The overview's figures shown, or 'sign-in' when the page shows the sign-in instead. The figures' time is their
 * Element Timing entry's renderTime: the frame's own time on screen, which no task queued after it can move; the
 * rAF timestamp would be the frame's start, before its style, layout and paint. The entry is read buffered, so it
 * is found whether it was made before or after this call. A plain DOM query: a Playwright locator here would inject
 * Playwright's own script into the page while it starts (160 ms of the page's main thread at load 22, counted in the
 * overview's time before).
 */
async function firstScreenShown(page: Page, orSignIn = true): Promise<OverviewPaint | 'sign-in'> {
  return (await page.evaluate(`new Promise((resolve, reject) => {
    let frame = null;
    let afterPaintWork = null;
    const settle = () => { if (frame !== null && afterPaintWork !== null) resolve({ frame, afterPaintWork }); };
    const figures = new PerformanceObserver((entries) => {
      const entry = entries.getEntries().find((e) => e.identifier === ${JSON.stringify(OVERVIEW_FIGURES_TIMING)});
      if (!entry) return;
      figures.disconnect();
      frame = performance.timeOrigin + (entry.renderTime || entry.startTime);
      settle();
    });
    figures.observe({ type: 'element', buffered: true });
    const check = () => {
      if (document.querySelector('[data-testid="tile-launching"]')) {
        (${AFTER_PAINT})((at) => { afterPaintWork = at; settle(); });
        // A guard, not a timing: a page not readied (or a Chromium without Element Timing) would wait for ever.
        setTimeout(() => { if (frame === null) reject(new Error('the overview was shown, but no Element Timing entry named ' + ${JSON.stringify(OVERVIEW_FIGURES_TIMING)} + ' came within 60 s: was the page readied with timeOverviewFrames?')); }, 60000);
        return true;
      }
      if (${orSignIn} && document.querySelector('#sign-in-title')) { figures.disconnect(); resolve('sign-in'); return true; }
      return false;
    };
    if (check()) return;
    const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
    // The document, not its body: called as soon as the page commits, the body may not be parsed yet.
    observer.observe(document, { subtree: true, childList: true });
  })`)) as OverviewPaint | 'sign-in';
}

interface PageSteps {
  readonly timeOrigin: number;
  readonly responseEnd: number;
  readonly domContentLoaded: number;
  readonly scripts: Array<{ name: string; start: number; end: number }>;
  readonly calls: Array<{ name: string; start: number; end: number }>;
}

async function pageSteps(page: Page): Promise<PageSteps> {
  return (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource').map((r) => ({ name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd }));
    return {
      timeOrigin: performance.timeOrigin,
      responseEnd: nav ? nav.responseEnd : 0,
      domContentLoaded: nav ? nav.domContentLoadedEventEnd : 0,
      scripts: resources.filter((r) => r.name.endsWith('.js')),
      calls: resources.filter((r) => r.name.startsWith('/ipc/')),
    };
  })()`)) as PageSteps;
}

/**
 * Opens the launch address in a fresh page of a just-spawned host, signs in
 * when the session was not kept, and times the overview's first frame.
 */
export async function timeLaunch(host: Host, page: Page): Promise<LaunchTiming> {
  await timeOverviewFrames(page);
  const openedAt = Date.now();
  await page.goto(host.launchUrl);
  // The launch address moves to the app's page once its code is spent.
  await page.waitForURL((url) => !url.pathname.startsWith('/__launch'));
  await page.waitForLoadState('domcontentloaded');
  const pageStarted = (await page.evaluate('performance.timeOrigin')) as number;
  let actionAt = pageStarted;
  let shown = await firstScreenShown(page);
  if (shown === 'sign-in') {
    actionAt = Date.now();
    await signIn(page);
    shown = await overviewPaintedAt(page);
  }
  const painted = shown.frame;
  const reading = await host.probe('read');
  const inPage = await pageSteps(page);
  const since = (at: number) => Math.round(at - host.spawnedAt);
  const steps: Record<string, number> = {};
  for (const { step, at } of reading.launch) steps[`host: ${step}`] = since(at);
  steps['page: launch address asked'] = since(openedAt);
  steps['page: app page started'] = since(pageStarted);
  steps['page: app page received'] = since(inPage.timeOrigin + inPage.responseEnd);
  steps['page: DOMContentLoaded'] = since(inPage.timeOrigin + inPage.domContentLoaded);
  const scriptsBefore = inPage.scripts.filter((s) => inPage.timeOrigin + s.start < painted);
  steps[`page: last of ${scriptsBefore.length} scripts before the paint received`] = since(inPage.timeOrigin + Math.max(0, ...scriptsBefore.map((s) => s.end)));
  for (const call of inPage.calls.filter((c) => inPage.timeOrigin + c.start < painted)) {
    const name = call.name.slice('/ipc/'.length);
    steps[`page: ${name} asked`] ??= since(inPage.timeOrigin + call.start);
    steps[`page: ${name} answered`] ??= since(inPage.timeOrigin + call.end);
  }
  steps['page: overview painted (its frame)'] = since(painted);
  steps['page: work queued after that frame done (the old marker)'] = since(shown.afterPaintWork);
  return { launch: painted - host.spawnedAt, overviewCold: painted - actionAt, afterPaintWork: shown.afterPaintWork - actionAt, steps, hostCpuMs: Math.round(reading.cpuMs) };
}

/**
 * Asks the kernel to drop its cached pages of every file under `dir` (GNU dd's
 * nocache flag: posix_fadvise DONTNEED), so the next read of the replica comes
 * from the disk, as after a reboot or a long while. Best effort: dirty pages
 * and a file system that ignores the advice keep theirs. Returns how many
 * files were advised.
 */
export async function dropFromPageCache(dir: string): Promise<number> {
  let advised = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    spawnSync('sync', [file]);
    const dd = spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
    if (dd.status === 0) advised += 1;
  }
  return advised;
}
