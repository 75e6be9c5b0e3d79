import { fork, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { loadNow, median, p95 } from './support/synced-app.js';

/**
 * What the browser host's carrier costs a call, apart from the app (issue 25, branch keys18): one Chromium page
 * calls a loopback server (bench/support/transport-server.ts, a child process) TRANSPORT_CALLS times, one call every
 * TRANSPORT_GAP_MS, each answered with a keystroke's capacity.list answer (34 whole records, about 31 KB), two ways
 * alternated in each of TRANSPORT_ROUNDS rounds: a POST a call as the browser host's shim sends it today, and a
 * message a call on one WebSocket opened before. Per call: the round trip in the page (call to parsed answer, median
 * and p95), the page's main-thread task and script time (Chromium's Performance metrics) and the server's CPU time.
 * The Electron app carries the same calls by ipcRenderer.invoke: this is the browser host's carrier only, and the
 * page runs under Playwright (its Network domain on, as in every bench and test). `npx tsx bench/transport-ab.ts`.
 */
const CALLS = Number(process.env.TRANSPORT_CALLS ?? 100);
const GAP_MS = Number(process.env.TRANSPORT_GAP_MS ?? 50);
const ROUNDS = Number(process.env.TRANSPORT_ROUNDS ?? 5);
type Carrier = 'fetch' | 'socket';

const server = fork('bench/support/transport-server.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const ask = <T>(message: string | null): Promise<T> =>
  new Promise((resolve) => {
    server.once('message', (answer) => resolve(answer as T));
    if (message) server.send(message);
  });
const { origin } = await ask<{ origin: string }>(null);
const serverCpu = async () => (await ask<{ cpuMs: number }>('cpu')).cpuMs;

if (process.env.TRANSPORT_BARE === '1') {
  // No DevTools client at all (as a person's browser): the page runs the rounds itself and posts its round trips.
  const profile = await mkdtemp(join(tmpdir(), 'cd-transport-'));
  const report = ask<{ report: Record<Carrier, number[][]> }>(null);
  const bare = spawn(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run', `--user-data-dir=${profile}`, `${origin}/?auto=${CALLS},${GAP_MS},${ROUNDS}`], { stdio: 'ignore' });
  const load = loadNow();
  const { report: trips } = await report;
  bare.kill();
  for (const carrier of ['fetch', 'socket'] as const) {
    const rounds = trips[carrier];
    process.stdout.write(`bare ${carrier}: round trip median per round ${rounds.map((r) => median(r).toFixed(2)).join(' / ')} ms, p95 ${rounds.map((r) => p95(r).toFixed(2)).join(' / ')} ms; load ${load}-${loadNow()}\n`);
  }
  server.send('stop');
  await rm(profile, { recursive: true, force: true });
  process.exit(0);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => {
    const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const of = (name: string) => (list.find((metric) => metric.name === name)?.value ?? 0) * 1000;
    return { task: of('TaskDuration'), script: of('ScriptDuration') };
  };
  const opened = await page.evaluate('window.benchReady');
  if (opened) throw new Error(`the socket did not open: ${String(opened)}`);
  const totals: Record<Carrier, { trip: number[]; p95: number[]; task: number[]; script: number[]; server: number[] }> = {
    fetch: { trip: [], p95: [], task: [], script: [], server: [] },
    socket: { trip: [], p95: [], task: [], script: [], server: [] },
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    const order: Carrier[] = round % 2 === 0 ? ['fetch', 'socket'] : ['socket', 'fetch'];
    for (const carrier of order) {
      const load = loadNow();
      const [before, cpuBefore] = [await metrics(), await serverCpu()];
      const trips = (await page.evaluate(`window.benchCalls.run(${JSON.stringify(carrier)}, ${CALLS}, ${GAP_MS})`)) as number[];
      const [after, cpuAfter] = [await metrics(), await serverCpu()];
      // The page's time a call: its tasks over the round, less nothing (the gaps' timers are alike for both carriers).
      const task = (after.task - before.task) / CALLS;
      const script = (after.script - before.script) / CALLS;
      const serverMs = (cpuAfter - cpuBefore) / CALLS;
      const t = totals[carrier];
      t.trip.push(median(trips));
      t.p95.push(p95(trips));
      t.task.push(task);
      t.script.push(script);
      t.server.push(serverMs);
      process.stdout.write(
        `round ${round + 1} ${carrier}: round trip median ${median(trips).toFixed(2)} p95 ${p95(trips).toFixed(2)} ms; page tasks ${task.toFixed(2)} ms a call (script ${script.toFixed(2)}); server CPU ${serverMs.toFixed(2)} ms a call; load ${load}-${loadNow()}\n`,
      );
    }
  }
  for (const carrier of ['fetch', 'socket'] as const) {
    const t = totals[carrier];
    process.stdout.write(
      `${carrier}: medians over ${ROUNDS} rounds: round trip ${median(t.trip).toFixed(2)} ms (p95 ${median(t.p95).toFixed(2)}), page tasks ${median(t.task).toFixed(2)} ms a call (script ${median(t.script).toFixed(2)}), server CPU ${median(t.server).toFixed(2)} ms a call\n`,
    );
  }
} finally {
  await browser.close();
  server.send('stop');
}
