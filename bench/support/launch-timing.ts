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
  /** Host spawned (the app opened) to the overview's figures painted. */
  readonly launch: number;
  /** The page's start (the window opening), or the Sign in click when the session was not kept, to the same frame. */
  readonly overviewCold: number;
  /** Each step, in ms after the host was spawned. */
  readonly steps: Record<string, number>;
  /** CPU time the host used from its start to just after the paint (read at once after it): its own work, whatever the load. */
  readonly hostCpuMs: number;
}

/** From the page's start (or the action given) to the overview's figures painted after layout (rAF + a task). */
export async function overviewPaintedAt(page: Page): Promise<number> {
  return (await firstScreenShown(page, false)) as number;
}

/**
 * The overview's figures painted (epoch ms, after layout: rAF + a task), or 'sign-in' when the page shows the
 * sign-in instead. A plain DOM query: a Playwright locator here would inject Playwright's own script into the page
 * while it starts (160 ms of the page's main thread at load 22, counted in the overview's time before).
 */
async function firstScreenShown(page: Page, orSignIn = true): Promise<number | 'sign-in'> {
  return (await page.evaluate(`new Promise((resolve) => {
    const done = () => (${AFTER_PAINT})(resolve);
    const check = () => {
      if (document.querySelector('[data-testid="tile-launching"]')) { done(); return true; }
      if (${orSignIn} && document.querySelector('#sign-in-title')) { resolve('sign-in'); return true; }
      return false;
    };
    if (check()) return;
    const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
    observer.observe(document.body, { subtree: true, childList: true });
  })`)) as number | 'sign-in';
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
  const openedAt = Date.now();
  await page.goto(host.launchUrl);
  // The launch address moves to the app's page once its code is spent.
  await page.waitForURL((url) => !url.pathname.startsWith('/__launch'));
  await page.waitForLoadState('domcontentloaded');
  const pageStarted = (await page.evaluate('performance.timeOrigin')) as number;
  let actionAt = pageStarted;
  let painted = await firstScreenShown(page);
  if (painted === 'sign-in') {
    actionAt = Date.now();
    await signIn(page);
    painted = await overviewPaintedAt(page);
  }
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
  steps['page: overview painted'] = since(painted);
  return { launch: painted - host.spawnedAt, overviewCold: painted - actionAt, steps, hostCpuMs: Math.round(reading.cpuMs) };
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
