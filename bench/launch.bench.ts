import { loadavg } from 'node:os';
import { HOST_ENTRY, startHost, type Host } from './support/app-page.js';
import { dropFromPageCache, timeLaunch, type LaunchTiming } from './support/launch-timing.js';
import { stopProcess } from './support/sandbox-process.js';
import { PAGE_RUNS, withSyncedApp } from './support/synced-app.js';
import type { Figure } from './figure.js';

/**
 * The launch with 100,000 policies on disk, timed from the person's action to
 * the frame that paints the overview's figures (Element Timing), and where the time goes; beside it, the old
 * marker's figure (the work the app queued behind that frame done), so that nothing is hidden. One sync fills the
 * copy (as app-path's first sync does); then the app is closed and opened
 * again PAGE_RUNS times on that copy, each time with the copy's files dropped
 * from the kernel's page cache first (as after a reboot or a long while), the
 * session restored from the keychain as in use. Each run prints its steps (ms
 * after the host was spawned) on stderr; the figures are medians, the load
 * averages of the runs beside them. app-path times the same launch after its
 * own first sync; this one repeats only the launch, so it takes minutes, not an hour.
 *
 * BENCH_BASE_HOST (the host.mjs of an earlier build, e.g. a copy of its dist/ kept under node_modules/.cache
 * so that its imports resolve) times that build's launch alternately with this one's on the same copy, in one
 * sitting, and prints its figures and the ratio beside: the load swings too much for figures from two sittings.
 */
const POLICIES = Number(process.env.BENCH_LAUNCH_POLICIES ?? 100_000);
const BASE_HOST = process.env.BENCH_BASE_HOST;

type Run = LaunchTiming & { load: number };

export default async function launch(): Promise<Figure[]> {
  return withSyncedApp(POLICIES, async ({ host: first, dataDir, browser, policies }) => {
    await stopProcess(first.child);
    const builds = BASE_HOST ? [{ label: 'base', entry: BASE_HOST }, { label: 'this build', entry: HOST_ENTRY }] : [{ label: '', entry: HOST_ENTRY }];
    const runs = new Map<string, Run[]>(builds.map((build) => [build.label, []]));
    for (let run = 0; run < PAGE_RUNS; run++) {
      for (const build of builds) {
        const advised = await dropFromPageCache(dataDir);
        let host: Host | null = null;
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        try {
          host = await startHost(dataDir, build.entry);
          const timing = await timeLaunch(host, page);
          const load = loadavg()[0] as number;
          runs.get(build.label)?.push({ ...timing, launch: Math.round(timing.launch), overviewCold: Math.round(timing.overviewCold), afterPaintWork: Math.round(timing.afterPaintWork), load });
          process.stderr.write(
            `  launch run ${run + 1}${build.label ? ` (${build.label})` : ''} (${advised} files dropped from the page cache, load ${load.toFixed(1)}): launch ${Math.round(timing.launch)} ms, overview cold ${Math.round(timing.overviewCold)} ms (after-paint work done ${Math.round(timing.afterPaintWork)} ms), host CPU to the paint ${timing.hostCpuMs} ms\n`,
          );
          for (const [step, at] of Object.entries(timing.steps).sort(([, a], [, b]) => a - b)) process.stderr.write(`    ${String(at).padStart(6)} ms  ${step}\n`);
        } finally {
          await page.close();
          if (host) await stopProcess(host.child);
        }
      }
    }
    const at = `${Math.round(policies / 1000)}k`;
    const goals = policies >= 90_000 && policies <= 110_000;
    const figures = builds.flatMap((build) => launchFigures(`${at}${build.label ? ` (${build.label})` : ''}`, runs.get(build.label) ?? [], goals));
    if (BASE_HOST) {
      const base = runs.get('base') ?? [];
      const now = runs.get('this build') ?? [];
      const ratio = (of: (run: Run) => number) => Math.round((100 * median(now.map(of))) / median(base.map(of)));
      const loads = [...base, ...now].map((r) => r.load.toFixed(1)).join('/');
      figures.push(
        { name: `${at}: overview cold, this build / base (same sitting, runs alternated)`, value: ratio((r) => r.overviewCold), unit: '%', load: loads },
        { name: `${at}: launch to overview painted, this build / base`, value: ratio((r) => r.launch), unit: '%', load: loads },
      );
    }
    return figures;
  });
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

function launchFigures(at: string, runs: readonly Run[], goals: boolean): Figure[] {
  const loads = runs.map((r) => r.load.toFixed(1)).join('/');
  const launchMs = median(runs.map((r) => r.launch));
  const coldMs = median(runs.map((r) => r.overviewCold));
  const afterPaintMs = median(runs.map((r) => r.afterPaintWork));
  const cpuMs = median(runs.map((r) => r.hostCpuMs));
  return [
    { name: `${at}: launch to overview painted, copy on disk and out of the page cache (host spawned to frame painted)`, value: launchMs, unit: 'ms', load: loads, ...(goals ? { budget: '<= 1500', withinBudget: launchMs <= 1500 } : {}) },
    { name: `${at}: overview cold (the window's page start to the frame that paints the figures, Element Timing; copy out of the page cache)`, value: coldMs, unit: 'ms', load: loads, ...(goals ? { budget: '<= 300', withinBudget: coldMs <= 300 } : {}) },
    { name: `${at}:   after-paint work done (the old marker: rAF then a task, after the work the app queued behind that frame)`, value: afterPaintMs, unit: 'ms', load: loads },
    { name: `${at}:   the host's CPU time from its start to the paint (its own work, less stretched by the load)`, value: cpuMs, unit: 'ms', load: loads },
  ];
}
