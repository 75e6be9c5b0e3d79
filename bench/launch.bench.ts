import { loadavg } from 'node:os';
import { startHost, type Host } from './support/app-page.js';
import { dropFromPageCache, timeLaunch, type LaunchTiming } from './support/launch-timing.js';
import { stopProcess } from './support/sandbox-process.js';
import { PAGE_RUNS, withSyncedApp } from './support/synced-app.js';
import type { Figure } from './figure.js';

/**
 * The launch with 100,000 policies on disk, timed from the person's action to
 * the overview's frame painted, and where the time goes. One sync fills the
 * copy (as app-path's first sync does); then the app is closed and opened
 * again PAGE_RUNS times on that copy, each time with the copy's files dropped
 * from the kernel's page cache first (as after a reboot or a long while), the
 * session restored from the keychain as in use. Each run prints its steps (ms
 * after the host was spawned) on stderr; the figures are medians, the load
 * averages of the runs beside them. app-path times the same launch after its
 * own first sync; this one repeats only the launch, so it takes minutes, not an hour.
 */
const POLICIES = Number(process.env.BENCH_LAUNCH_POLICIES ?? 100_000);

export default async function launch(): Promise<Figure[]> {
  return withSyncedApp(POLICIES, async ({ host: first, dataDir, browser, policies }) => {
    await stopProcess(first.child);
    const runs: Array<LaunchTiming & { load: number }> = [];
    for (let run = 0; run < PAGE_RUNS; run++) {
      const advised = await dropFromPageCache(dataDir);
      let host: Host | null = null;
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        host = await startHost(dataDir);
        const timing = await timeLaunch(host, page);
        runs.push({ ...timing, launch: Math.round(timing.launch), overviewCold: Math.round(timing.overviewCold), load: loadavg()[0] as number });
        process.stderr.write(`  launch run ${run + 1} (${advised} files dropped from the page cache, load ${(loadavg()[0] as number).toFixed(1)}): launch ${Math.round(timing.launch)} ms, overview cold ${Math.round(timing.overviewCold)} ms, host CPU to the paint ${timing.hostCpuMs} ms\n`);
        for (const [step, at] of Object.entries(timing.steps).sort(([, a], [, b]) => a - b)) process.stderr.write(`    ${String(at).padStart(6)} ms  ${step}\n`);
      } finally {
        await page.close();
        if (host) await stopProcess(host.child);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
    const loads = runs.map((r) => r.load.toFixed(1)).join('/');
    const at = `${Math.round(policies / 1000)}k`;
    const launchMs = median(runs.map((r) => r.launch));
    const coldMs = median(runs.map((r) => r.overviewCold));
    const cpuMs = median(runs.map((r) => r.hostCpuMs));
    const goals = policies >= 90_000 && policies <= 110_000;
    return [
      { name: `${at}: launch to overview painted, copy on disk and out of the page cache (host spawned to frame painted)`, value: launchMs, unit: 'ms', load: loads, ...(goals ? { budget: '<= 1500', withinBudget: launchMs <= 1500 } : {}) },
      { name: `${at}: overview cold (the window's page start to frame painted; copy out of the page cache)`, value: coldMs, unit: 'ms', load: loads, ...(goals ? { budget: '<= 300', withinBudget: coldMs <= 300 } : {}) },
      { name: `${at}:   the host's CPU time from its start to the paint (its own work, less stretched by the load)`, value: cpuMs, unit: 'ms', load: loads },
    ];
  });
}
