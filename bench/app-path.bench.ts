import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { Pool } from 'undici';
import type { BenchProbeReading } from '../electron/services/diagnostics/bench-probe.js';
import { CONCURRENCY } from '../electron/services/replica/replica-sync.js';
import { SYNC_PAGE_SIZE } from '../electron/services/bulk/capacity-sync.js';
import { ENDPOINTS } from '../shared/api/endpoints.js';
import { SANDBOX_USERS } from '../sandbox/accounts.js';
import { CURVE_1M, curveSizes, sizeLabel } from './curve.js';
import type { Figure } from './figure.js';
import { fetchEveryPage, pagePaths } from './support/page-fetch.js';
import { hostStallTraceArgs, keystroke, openList, signIn, startHost, waitForPhase, type Host } from './support/app-page.js';
import { stopHostStallTrace } from './support/host-stall-stop.js';
import type { HostStallTraceRequest } from './support/host-stall-trace.js';
import { stallLines, stallsByPhase } from './support/stall-tracer.js';
import { dropFromPageCache, timeLaunch } from './support/launch-timing.js';
import { p95 } from './support/synced-app.js';
import { setCapacityLatency, startSandboxProcess, stopProcess } from './support/sandbox-process.js';

/**
 * The app as a person uses it, timed from their action to the frame painted:
 * the browser host (dist/host, started as `npm start` starts it), the sandbox
 * in its own process with a 50 ms round trip on every capacity call, real
 * Chromium. Per size and run: a first sync into an empty data folder (sign-in
 * starts it, as in use), then a second launch with that replica on disk (the
 * session restored from the keychain, its refresh running while keys are
 * typed). Medians of BENCH_RUNS runs (at least 3), each beside the 1-minute
 * load averages of its runs. Sizes: 10k and 100k; 1M with BENCH_1M=1 (its
 * sandbox and syncs take well over five minutes here).
 */
const SIZES = curveSizes(process.env.BENCH_SIZES, [10_000, 100_000]);
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const RTT_MS = 50;
/**
 * APP_PATH_REUSE_COPY=1/0 (default: at 1M): runs after the first take the data folder the first run's first sync
 * left (its copy file and settings; the copy's key and the session are the keychain's, the same profile's), copied
 * before that run's launch, so they time the launch, the overview cold and the keystrokes through the app's own
 * path without a first sync each (20-40 minutes at 1M at load 20-40). Their first-sync figures are then the first
 * run's alone, and say so.
 */
/**
 * STALL_TRACE=1: the first sync's host traced (bench/support/host-stall-trace.ts: its turns and a sampling profiler,
 * so that run's figures a little slower) from the sign-in to STALL_TRACE_AFTER_MS (default 120 s) after the sync's
 * `done` (the work the app does after it: the slim rows, the search index, the overview's count), and its turns over
 * STALL_TRACE_OVER_MS (default 200, the 1M bound) printed, each placed in the sync phase under way at its start.
 */
const TRACE = process.env.STALL_TRACE === '1';
const TRACE_OVER_MS = Number(process.env.STALL_TRACE_OVER_MS ?? CURVE_1M.stallMs);
const TRACE_AFTER_MS = Number(process.env.STALL_TRACE_AFTER_MS ?? 120_000);
const reuseCopyAt = (size: number) => (process.env.APP_PATH_REUSE_COPY ? process.env.APP_PATH_REUSE_COPY === '1' : size >= 1_000_000);
/** The first sandbox user holds about 60 % of the seeded policies. */
const SCALE_PER_POLICY = 1 / 0.6;
const alex = SANDBOX_USERS[0]!;
const TYPED = ['m5.2xlarge', 'sc_1000', 'morgan', 'use1-az2', 'r6g'].flatMap((word) => Array.from(word, (_, i) => word.slice(0, i + 1)));
/** Peak resident memory of a process since the last reset (the kernel's high-water mark, so no peak is missed between samples). */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}
const resetPeakRss = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5');

/** A client that only fetches the same list pages at the app's concurrency and runs JSON.parse on each. */
async function parseOnlyFetch(url: string, policies: number): Promise<number> {
  const pool = new Pool(url, { connections: CONCURRENCY });
  try {
    const signedIn = await fetch(`${url}${ENDPOINTS.signIn.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: alex.username, password: alex.password }),
    });
    const { access_token: token } = (await signedIn.json()) as { access_token: string };
    const paths = pagePaths(Math.ceil(policies / SYNC_PAGE_SIZE));
    const started = Date.now();
    await fetchEveryPage(pool, token, paths, CONCURRENCY, (text) => JSON.parse(text));
    return Date.now() - started;
  } finally {
    await pool.close();
  }
}

type Sample = Record<string, number>;

function phase(reading: BenchProbeReading, name: string) {
  const found = reading.phases.find((p) => p.phase === name);
  if (!found) throw new Error(`the sync reported no "${name}" phase`);
  return found;
}

/**
 * One run: a first sync into an empty folder, then a launch with its replica on disk. `copy.keepTo`: the folder the
 * first sync left is copied there before the launch; `copy.from`: no first sync, the launch on a copy of that folder.
 */
async function oneRun(sandboxUrl: string, browser: Browser, size: number, copy: { readonly keepTo?: string; readonly from?: string } = {}): Promise<Sample> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-app-'));
  const sample: Sample = {};
  const load = () => loadavg()[0] as number;
  try {
    if (copy.from) {
      await cp(copy.from, dataDir, { recursive: true });
      return await launchOnCopy(dataDir, browser, sample, load);
    }
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ version: 1, activeProfileId: 'bench', profiles: [{ id: 'bench', name: 'Bench sandbox', baseUrl: sandboxUrl }] }),
    );
    // First sync: sign-in into an empty data folder starts it, as in use.
    const host = await startHost(dataDir, undefined, TRACE ? hostStallTraceArgs() : []);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(host.launchUrl);
      await host.probe('reset');
      await resetPeakRss(host.child.pid!);
      if (TRACE) host.child.send({ stallTrace: 'start' } satisfies HostStallTraceRequest);
      await signIn(page);
      // Half an hour a 100,000 (a 1M first sync at load 20-40 takes 20-40 minutes).
      const first = await waitForPhase(host, 'done', 30 * 60_000 * Math.max(1, size / 100_000));
      const capacities = phase(first, 'capacities');
      const details = phase(first, 'details');
      const accounts = phase(first, 'accounts');
      sample.syncFetch = capacities.lastAt - capacities.firstAt;
      sample.syncWrite = details.firstAt - capacities.lastAt;
      sample.syncDetails = accounts.firstAt - details.firstAt;
      sample.syncApp = accounts.firstAt - capacities.firstAt;
      sample.syncStall = first.maxStallMs;
      sample.syncPeakRss = await peakRssMb(host.child.pid!);
      sample.policies = phase(first, 'done').lastFetched;
      sample.syncLoad = load();
      if (TRACE) await printFirstSyncStalls(host, size);
    } finally {
      await page.close();
      await stopProcess(host.child);
    }
    sample.parseOnly = await parseOnlyFetch(sandboxUrl, sample.policies ?? 0);
    if (copy.keepTo) await cp(dataDir, copy.keepTo, { recursive: true });
    return await launchOnCopy(dataDir, browser, sample, load);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The first sync's traced host turns over TRACE_OVER_MS, by the sync phase under way at each one's start. */
async function printFirstSyncStalls(host: Host, size: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, TRACE_AFTER_MS));
  const { stalls } = await stopHostStallTrace(host, TRACE_OVER_MS);
  const { phases, byPhase } = stallsByPhase(stalls, (await host.probe('read')).phases);
  const start = phases[0]?.firstAt ?? 0;
  process.stderr.write(
    `  ${sizeLabel(size)} first sync, host turns over ${TRACE_OVER_MS} ms (phases at ${phases.map((p) => `${p.phase} ${Math.round((p.firstAt - start) / 1000)} s`).join(', ')}): ` +
      `${[...byPhase].map(([phase, list]) => `${phase} ${list.length} (longest ${Math.round(list[0]?.ms ?? 0)})`).join('; ')}\n`,
  );
  for (const [phase, list] of byPhase) process.stderr.write(stallLines(`${sizeLabel(size)} first sync ${phase}`, list, 8));
}

/**
 * The second launch: the replica on disk (out of the page cache, as after a reboot), the session restored, its refresh
 * started by the launch, keys typed while it runs and after.
 */
async function launchOnCopy(dataDir: string, browser: Browser, sample: Sample, load: () => number): Promise<Sample> {
  await dropFromPageCache(dataDir);
  const host = await startHost(dataDir);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await host.probe('reset');
    const launched = await timeLaunch(host, page);
    sample.launch = launched.launch;
    sample.overviewCold = launched.overviewCold;
    sample.launchLoad = load();
    await openList(page);
    const busy: Array<number | null> = [];
    while (!(await host.probe('read')).phases.some((p) => p.phase === 'done')) busy.push(await keystroke(page, TYPED[busy.length % TYPED.length] as string));
    const refresh = await host.probe('read');
    sample.keysBusyCount = busy.length;
    sample.keysLost = busy.filter((ms) => ms === null).length;
    sample.keysBusy = p95(busy);
    sample.refreshStall = refresh.maxStallMs;
    sample.refreshLoad = load();
    const idle: Array<number | null> = [];
    for (const text of TYPED) idle.push(await keystroke(page, text));
    sample.keysIdle = p95(idle);
    sample.keysLost += idle.filter((ms) => ms === null).length;
    sample.idleLoad = load();
  } finally {
    await page.close();
    await stopProcess(host.child);
  }
  return sample;
}

function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}


/** Goals apply at 100,000 (issue 25); at 1M the stalls must stay under 200 ms and the busy keystroke p95 under 100 ms. */
function figuresOf(size: number, samples: Sample[]): Figure[] {
  const at = sizeLabel(size);
  const m = (key: string) => median(samples.map((s) => s[key] ?? NaN));
  const loads = (key: string) => samples.flatMap((s) => (s[key] === undefined ? [] : [s[key].toFixed(1)])).join('/');
  const goals = size === 100_000;
  const big = size >= 1_000_000;
  // With the first run's copy reused (APP_PATH_REUSE_COPY), the first sync's figures are that run's alone: said in their names.
  const syncRuns = samples.filter((s) => s.syncApp !== undefined).length;
  const figure = (name: string, key: string, loadKey: string, unit: string, goal?: { text: string; met: (v: number) => boolean }): Figure => {
    const value = Math.round(m(key) * 10) / 10;
    const runs = loadKey === 'syncLoad' && syncRuns < samples.length ? ` [${syncRuns} run(s); the other runs launched on its copy]` : '';
    return { name: `${at}: ${name}${runs}`, value, unit, load: loads(loadKey), ...(goal ? { budget: goal.text, withinBudget: goal.met(value) } : {}), curve: { figure: name, size } };
  };
  const within = (limit: number) => ({ text: `<= ${limit}`, met: (v: number) => v <= limit });
  const below = (limit: number) => ({ text: `< ${limit}`, met: (v: number) => v < limit });
  const share = samples.map((s) => ((s.parseOnly ?? NaN) / (s.syncApp ?? NaN)) * 100);
  const shareValue = Math.round(median(share) * 10) / 10;
  return [
    figure('policies of the signed-in user', 'policies', 'syncLoad', 'policies'),
    figure('launch to overview painted, replica on disk and out of the page cache (host spawned to frame painted)', 'launch', 'launchLoad', 'ms', goals ? within(1500) : undefined),
    figure('overview from the replica, cold (the window\'s page start, or the Sign in click, to frame painted; copy out of the page cache)', 'overviewCold', 'launchLoad', 'ms', goals ? within(300) : undefined),
    figure(`first sync at ${RTT_MS} ms: the app (list fetched + written + details read)`, 'syncApp', 'syncLoad', 'ms'),
    figure('  of which: list pages fetched', 'syncFetch', 'syncLoad', 'ms'),
    figure('  of which: list written (last page to first detail read)', 'syncWrite', 'syncLoad', 'ms'),
    figure('  of which: details read and written', 'syncDetails', 'syncLoad', 'ms'),
    figure(`first sync at ${RTT_MS} ms: JSON.parse-only client, same pages, concurrency ${CONCURRENCY}`, 'parseOnly', 'syncLoad', 'ms'),
    {
      name: `${at}: first sync at ${RTT_MS} ms: the app's throughput / JSON.parse-only client's`,
      value: shareValue,
      unit: '%',
      load: loads('syncLoad'),
      ...(goals ? { budget: '>= 70', withinBudget: shareValue >= 70 } : {}),
      curve: { figure: `first sync at ${RTT_MS} ms: the app's throughput / JSON.parse-only client's`, size },
    },
    figure('longest main-process stall during the first sync', 'syncStall', 'syncLoad', 'ms', goals ? within(50) : big ? within(CURVE_1M.stallMs) : undefined),
    figure('main-process peak RSS during the first sync', 'syncPeakRss', 'syncLoad', 'MB', goals ? within(400) : undefined),
    figure('longest main-process stall during the launch refresh (replica on disk)', 'refreshStall', 'refreshLoad', 'ms', goals ? within(50) : big ? within(CURVE_1M.stallMs) : undefined),
    figure('keystroke to repaint p95 while the refresh runs', 'keysBusy', 'refreshLoad', 'ms', goals ? within(50) : big ? below(CURVE_1M.keystrokeMs) : undefined),
    figure('  keystrokes timed while the refresh ran', 'keysBusyCount', 'refreshLoad', 'keys'),
    figure('keystrokes with no repaint within 10 s (busy and idle)', 'keysLost', 'refreshLoad', 'keys', within(0)),
    figure(`keystroke to repaint p95, idle (${TYPED.length} keys)`, 'keysIdle', 'idleLoad', 'ms', goals ? within(33) : undefined),
  ];
}

export default async function appPath(): Promise<Figure[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
  const figures: Figure[] = [];
  try {
    for (const size of SIZES) {
      const sandbox = await startSandboxProcess(Math.round(size * SCALE_PER_POLICY));
      try {
        await setCapacityLatency(sandbox.url, RTT_MS);
        const samples: Sample[] = [];
        const kept = reuseCopyAt(size) ? await mkdtemp(join(tmpdir(), 'cd-bench-app-kept-')) : undefined;
        for (let run = 0; run < RUNS; run++) {
          const sample = await oneRun(sandbox.url, browser, size, kept ? (run === 0 ? { keepTo: join(kept, 'data') } : { from: join(kept, 'data') }) : {});
          process.stderr.write(`  ${sizeLabel(size)} run ${run + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(v)])))}\n`);
          samples.push(sample);
        }
        figures.push(...figuresOf(size, samples));
        if (kept) await rm(kept, { recursive: true, force: true });
      } finally {
        await stopProcess(sandbox.child);
      }
    }
  } finally {
    await browser.close();
  }
  return figures;
}
