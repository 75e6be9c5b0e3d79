import { readFile, writeFile } from 'node:fs/promises';
import type { CDPSession, Page } from '@playwright/test';
import { HOST_ENTRY, openList, startHost, waitForPhase, type Host } from './support/app-page.js';
import { startKeyParts, takeKeyParts, type KeyParts } from './support/keystroke-parts.js';
import { loadNow, median, p95, withSyncedApp } from './support/synced-app.js';
import { stopProcess } from './support/sandbox-process.js';

/**
 * Where an idle search keystroke's time goes, through the page (issue 25, branch keys8): one synced copy, then
 * the host of each build named in KEY_PARTS_HOSTS (comma separated host.mjs paths; default this build's) started
 * on it in turn, KEY_PARTS_ROUNDS times (alternated, so a before/after comparison shares the machine's load),
 * 60 keys each typed through Chromium's key events, each key waiting for the previous one's paint (idle: no key
 * overlaps another). Prints the median and p95 of each part with the load average. Not part of `npm run bench`:
 * `bash scripts/with-keychain.sh npx tsx bench/keystroke-parts.ts` after `npm run build`.
 */
const SIZE = Number(process.env.KEY_PARTS_SIZE ?? 100_000);
const HOSTS = (process.env.KEY_PARTS_HOSTS ?? HOST_ENTRY).split(',');
const ROUNDS = Number(process.env.KEY_PARTS_ROUNDS ?? 3);
const KEYS = 60;
const TYPED = ['m5.2xlarge', 'sc_1000', 'morgan', 'use1-az2', 'r6g'];

async function typeIdle(page: Page, keys: number): Promise<KeyParts[]> {
  const search = page.getByTestId('list-search');
  await search.focus();
  const parts: KeyParts[] = [];
  for (let word = 0; parts.length < keys; word += 1) {
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await takeKeyParts(page);
    for (const char of TYPED[word % TYPED.length] as string) {
      await page.keyboard.type(char);
      for (let waited = 0; waited < 10_000; waited += 20) {
        const got = await takeKeyParts(page);
        if (got.length > 0) {
          parts.push(...got);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return parts;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
async function cpuMsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Waits (at most 3 minutes) until the host used under 5 % of a core over a second. */
async function hostQuiet(host: Host): Promise<void> {
  for (let tries = 0; tries < 180; tries += 1) {
    const before = await cpuMsOf(host.child.pid as number);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if ((await cpuMsOf(host.child.pid as number)) - before < 50) return;
  }
}

/** The page's main-thread time so far by kind (Chromium's Performance domain), in ms. */
async function pageMetrics(session: CDPSession): Promise<Record<string, number>> {
  const { metrics } = (await session.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(metrics.filter((m) => /Duration$/.test(m.name)).map((m) => [m.name.replace('Duration', ''), m.value * 1000]));
}

function report(label: string, parts: KeyParts[], load: string): void {
  const names: Array<keyof KeyParts> = ['toInput', 'toRequest', 'host', 'download', 'toUpdated', 'toPaint', 'total'];
  const line = names.map((name) => `${name} ${median(parts.map((p) => p[name])).toFixed(1)}/${p95(parts.map((p) => p[name])).toFixed(1)}`).join('  ');
  process.stdout.write(`${label} (${parts.length} keys, median/p95 ms): ${line}; load ${load}\n`);
}

await withSyncedApp(SIZE, async ({ page, host: first, dataDir }) => {
  let host: Host = first;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [at, entry] of HOSTS.entries()) {
      // Each build's host started afresh on the copy (KEY_PARTS_PROF_DIR: these hosts, not the first sync's, write a V8 CPU profile there).
      if (process.env.KEY_PARTS_PROF_DIR) process.env.BENCH_HOST_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${process.env.KEY_PARTS_PROF_DIR}`;
      await stopProcess(host.child);
      host = await startHost(dataDir, entry);
      await page.goto(host.launchUrl);
      await page.getByTestId('tile-launching').waitFor({ timeout: 120_000 });
      await openList(page);
      await startKeyParts(page);
      // The launch's own background work (its refresh, the page check, the slim rows' load) ends before the idle keys.
      await typeIdle(page, 10);
      // A host started on a kept session refreshes the copy at its sign-in: its end first (at most 5 minutes), then a quiet second.
      await waitForPhase(host, 'done', 5 * 60_000).catch(() => undefined);
      await hostQuiet(host);
      const session = await page.context().newCDPSession(page);
      await session.send('Performance.enable');
      const load = loadNow();
      const hostBefore = await cpuMsOf(host.child.pid as number);
      const pageBefore = await pageMetrics(session);
      const typingFrom = process.hrtime.bigint() / 1000n;
      // KEY_PARTS_PROF_DIR: the page's own V8 CPU profile over the keys too.
      if (process.env.KEY_PARTS_PROF_DIR) await session.send('Profiler.enable').then(() => session.send('Profiler.start'));
      const parts = await typeIdle(page, KEYS);
      if (process.env.KEY_PARTS_PROF_DIR) {
        const { profile } = (await session.send('Profiler.stop')) as { profile: unknown };
        await writeFile(`${process.env.KEY_PARTS_PROF_DIR}/page-${round}-${at}.cpuprofile`, JSON.stringify(profile));
      }
      // On the profile's clock (CLOCK_MONOTONIC, µs): its samples between these are the keys'.
      process.stdout.write(`  typing from ${typingFrom} to ${process.hrtime.bigint() / 1000n} µs (monotonic)\n`);
      const hostCpu = (await cpuMsOf(host.child.pid as number)) - hostBefore;
      const pageAfter = await pageMetrics(session);
      await session.detach();
      report(`${entry} round ${round + 1}`, parts, `${load}-${loadNow()}`);
      const perKey = (ms: number) => (ms / parts.length).toFixed(2);
      process.stdout.write(
        `  CPU a key: host ${perKey(hostCpu)} ms; page ${Object.entries(pageAfter).map(([name, ms]) => `${name} ${perKey(ms - (pageBefore[name] ?? 0))}`).join(', ')} ms\n`,
      );
    }
  }
  await stopProcess(host.child);
});
