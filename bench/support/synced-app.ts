import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { AFTER_PAINT, signIn, startHost, waitForPhase, type Host } from './app-page.js';
import { setCapacityLatency, startSandboxProcess, stopProcess } from './sandbox-process.js';

/** The first sandbox user holds about 60 % of the seeded policies. */
const SCALE_PER_POLICY = 1 / 0.6;
/** Runs of each timing through the page; the median is the figure (timings swing with the machine's load). */
export const PAGE_RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));

export interface SyncedApp {
  readonly page: Page;
  readonly host: Host;
  /** The policies the sync brought into the copy. */
  readonly policies: number;
  /** The data folder holding the copy (a host started on it again finds the copy and the kept session). */
  readonly dataDir: string;
  readonly browser: Browser;
  /** The sandbox's address (its test controls on), for changes made on the service behind the app's back. */
  readonly sandboxUrl: string;
}

/**
 * The app with a synced copy of about `policies` capacity policies, as a
 * person has it after signing in: the sandbox in its own process, the browser
 * host (dist/host, so run `npm run build` first, and through
 * scripts/with-keychain.sh, so the copy is kept on disk as in use), real
 * Chromium at 1280x800. `accounts` gives the sandbox user that many more
 * linked accounts, their policies spread over them (sandbox --accounts);
 * `rttMs` adds that round trip to every capacity call from the first sync on.
 */
export async function withSyncedApp<T>(
  policies: number,
  use: (app: SyncedApp) => Promise<T>,
  options: {
    readonly accounts?: number;
    readonly rttMs?: number;
    /**
     * Run in the page signed in, while its first sync runs (the page open through the sync, as a person's is),
     * awaited before the sync's end is waited for: e.g. a click made as the page shows the sync done.
     */
    readonly duringSync?: (page: Page, host: Host) => Promise<void>;
    /** More of Node's arguments for the host (hostStallTraceArgs(): its stall tracer). */
    readonly hostNodeArgs?: readonly string[];
  } = {},
): Promise<T> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
  const sandbox = await startSandboxProcess(Math.round(policies * SCALE_PER_POLICY), options.accounts ?? 0);
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-page-'));
  try {
    if (options.rttMs) await setCapacityLatency(sandbox.url, options.rttMs);
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ version: 1, activeProfileId: 'bench', profiles: [{ id: 'bench', name: 'Bench sandbox', baseUrl: sandbox.url }] }),
    );
    const host = await startHost(dataDir, undefined, options.hostNodeArgs);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(host.launchUrl);
      await signIn(page);
      if (options.duringSync) await options.duringSync(page, host);
      // Half an hour a 100,000: a first sync of 600,000 at load 33-58 had not ended in 30 minutes.
      const done = await waitForPhase(host, 'done', 30 * 60_000 * Math.max(1, policies / 100_000));
      const synced = done.phases.find((phase) => phase.phase === 'done')?.lastFetched ?? 0;
      return await use({ page, host, policies: synced, dataDir, browser, sandboxUrl: sandbox.url });
    } finally {
      await stopProcess(host.child);
    }
  } finally {
    await stopProcess(sandbox.child);
    await browser.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The page loaded afresh (the stores empty, as at a launch), its overview shown. */
export async function reloadApp(page: Page): Promise<void> {
  await page.reload();
  await page.getByTestId('tile-launching').waitFor({ timeout: 120_000 });
}

/**
 * Clicks the element `selector` finds (the one whose text is `text`, when given), and answers the milliseconds from that
 * click to the frame painted after `ready` first finds an element (rAF, then a
 * task). Null when nothing appeared within 30 s.
 */
export async function clickToPaint(page: Page, selector: string, ready: string, text?: string): Promise<number | null> {
  return (await page.evaluate(`new Promise((resolve) => (${inPageClickToPaint(selector, ready, text)})(resolve))`)) as number | null;
}

/**
 * As clickToPaint, the click made in the very task the page first shows its sync done (the status area's
 * "Refreshing the local copy" seen, then gone), as a person clicks who waited for it; null when the page showed no
 * sync ending within `timeoutMs` or nothing appeared within 30 s of the click.
 */
export async function clickToPaintAtSyncDone(page: Page, selector: string, ready: string, text: string | undefined, timeoutMs: number): Promise<number | null> {
  return (await page.evaluate(`new Promise((resolve) => {
    let running = false;
    const ended = () => {
      const shown = document.querySelector('#replica-phase') !== null;
      running ||= shown;
      return running && !shown;
    };
    const click = ${inPageClickToPaint(selector, ready, text)};
    if (ended()) return click(resolve);
    const watcher = new MutationObserver(() => {
      if (!ended()) return;
      watcher.disconnect();
      click(resolve);
    });
    watcher.observe(document.body, { subtree: true, childList: true });
    setTimeout(() => { watcher.disconnect(); resolve(null); }, ${timeoutMs});
  })`)) as number | null;
}

/** In-page source of a function of `resolve`: clicks and resolves with the ms from the click to the frame painted with `ready`. */
function inPageClickToPaint(selector: string, ready: string, text?: string): string {
  return `(resolve) => {
    const target = [...document.querySelectorAll(${JSON.stringify(selector)})].find((element) => ${JSON.stringify(text ?? null)} === null || element.textContent.trim() === ${JSON.stringify(text ?? null)});
    if (!target) return resolve(null);
    let started = 0;
    const check = () => {
      if (!document.querySelector(${JSON.stringify(ready)})) return false;
      observer.disconnect();
      (${AFTER_PAINT})(() => resolve(performance.now() - started));
      return true;
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true });
    started = performance.now();
    // For a breakdown of the wait (resource timings are on the same clock).
    performance.clearResourceTimings();
    performance.mark('bench-start');
    target.click();
    setTimeout(() => { observer.disconnect(); resolve(null); }, 30000);
  }`;
}

/** The 95th percentile (nearest rank); a timing that never ended (null) counts as the slowest. */
export function p95(values: ReadonlyArray<number | null>): number {
  const sorted = values.map((v) => v ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

export function median(values: ReadonlyArray<number | null>): number {
  const sorted = values.map((v) => v ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The 1-minute load average now, as printed beside a figure. */
export const loadNow = () => (loadavg()[0] ?? 0).toFixed(1);
