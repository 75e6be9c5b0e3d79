import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { UNASSIGNED } from '../shared/ipc/customer-key.js';
import { HOST_ENTRY, keystroke, openList, startHost, startKeyTimer, takeKeyTimings, typeOnSchedule, waitForPhase, type Host } from './support/app-page.js';
import { BOOK_ACCOUNTS, importBook } from './support/customers-page.js';
import { stopProcess } from './support/sandbox-process.js';
import { loadNow, median, p95, withSyncedApp } from './support/synced-app.js';

/**
 * The two idle keystroke figures of issues 25/26, builds alternated on one synced copy and book (issue 25/26,
 * branch keys12): the plain search typed through Chromium's key events on keystroke-refresh's schedule (one key
 * every 150 ms, its words, 50 keys, each timed from its keydown to the frame painted after the table's answer),
 * and the search within "No customer" as the customers bench types it (each key from its input event to the
 * frame painted). Each build's host (KEY_AB_HOSTS: comma separated host.mjs paths, each serving its own
 * renderer; default this build's) is started in turn on the copy, KEY_AB_ROUNDS times, its launch refresh let end
 * first. KEY_AB_TRACE_DIR: a Chromium performance trace of each build's first round of plain keys is written
 * there (KEY_AB_RECORD=none: of the keys within "No customer" instead; bench/trace-tasks.ts sums a trace's tasks). Not part of `npm run bench`: `bash scripts/with-keychain.sh npx tsx bench/keystroke-ab.ts` after a build.
 */
const SIZE = Number(process.env.KEY_AB_SIZE ?? 100_000);
const HOSTS = (process.env.KEY_AB_HOSTS ?? HOST_ENTRY).split(',');
const ROUNDS = Number(process.env.KEY_AB_ROUNDS ?? 3);
const TRACE_DIR = process.env.KEY_AB_TRACE_DIR;
const PROF_DIR = process.env.KEY_AB_PROF_DIR;
/** Which keys KEY_AB_TRACE_DIR and KEY_AB_PROF_DIR record: the plain search's (default) or those within "No customer". */
const RECORDED: 'plain' | 'none' = process.env.KEY_AB_RECORD === 'none' ? 'none' : 'plain';
const PLAIN_KEYS = 50;
const PLAIN_WORDS = ['m5.2xlarge', 'sc_1000', 'morgan', 'use1-az2', 'r6g'];
const NO_CUSTOMER_TYPED = ['m5.2xlarge', 'sc_1000', 'analytics', 'use1-az2', 'r6g'].flatMap((word) => Array.from(word, (_, i) => word.slice(0, i + 1)));

/**
 * The host's CPU time so far (user + system, ms, from /proc: Linux only, else NaN): a build's host work a key read
 * apart from the machine's load, which stretches the wall times but not what the host itself spends.
 */
function hostCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

async function plainKeys(page: Page): Promise<Array<number | null>> {
  await startKeyTimer(page);
  await takeKeyTimings(page);
  await typeOnSchedule(page, PLAIN_WORDS, PLAIN_KEYS, 150);
  return takeKeyTimings(page);
}

async function noCustomerKeys(page: Page): Promise<Array<number | null>> {
  await page.getByTestId('customer-filter').selectOption(UNASSIGNED);
  const typed: Array<number | null> = [];
  for (const text of NO_CUSTOMER_TYPED) typed.push(await keystroke(page, text));
  await keystroke(page, '');
  await page.getByTestId('customer-filter').selectOption('');
  return typed;
}

const results = new Map<string, { plain: number[]; none: number[] }>(HOSTS.map((entry) => [entry, { plain: [], none: [] }]));

await withSyncedApp(
  SIZE,
  async ({ page, host: first, dataDir, browser }) => {
    await importBook(page);
    await stopProcess(first.child);
    let host: Host | undefined;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [at, entry] of HOSTS.entries()) {
        host = await startHost(dataDir, entry);
        const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        try {
          await fresh.goto(host.launchUrl);
          await fresh.getByTestId('tile-launching').waitFor({ timeout: 120_000 });
          await waitForPhase(host, 'done', 10 * 60_000);
          await openList(fresh);
          // A few keys first: the view's chunks, the first answers and the JIT warmed for either build alike.
          await typeOnSchedule(fresh, PLAIN_WORDS, 10, 150);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          const load = loadNow();
          const recording = round === 0 && (TRACE_DIR !== undefined || PROF_DIR !== undefined);
          const record = async <T>(keys: 'plain' | 'none', typing: () => Promise<T>): Promise<T> => {
            if (!recording || keys !== RECORDED) return typing();
            if (TRACE_DIR !== undefined) await browser.startTracing(fresh, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'v8'] });
            // KEY_AB_PROF_DIR: the page's V8 CPU profile over each build's first round of the keys recorded.
            const profiling = PROF_DIR !== undefined ? await fresh.context().newCDPSession(fresh) : undefined;
            if (profiling) await profiling.send('Profiler.enable').then(() => profiling.send('Profiler.setSamplingInterval', { interval: 200 })).then(() => profiling.send('Profiler.start'));
            const typed = await typing();
            if (profiling) {
              const { profile } = (await profiling.send('Profiler.stop')) as { profile: unknown };
              await writeFile(`${PROF_DIR}/page-${keys}-${at}.cpuprofile`, JSON.stringify(profile));
              await profiling.detach();
            }
            if (TRACE_DIR !== undefined) await writeFile(`${TRACE_DIR}/trace-${keys}-${at}.json`, await browser.stopTracing());
            return typed;
          };
          const atStart = hostCpuMs(host.child.pid);
          const plain = await record('plain', () => plainKeys(fresh));
          const afterPlain = hostCpuMs(host.child.pid);
          const none = await record('none', () => noCustomerKeys(fresh));
          const hostCpu = `host CPU a key: plain ${((afterPlain - atStart) / plain.length).toFixed(2)} ms, no-customer ${((hostCpuMs(host.child.pid) - afterPlain) / none.length).toFixed(2)} ms`;
          const r = results.get(entry);
          r?.plain.push(p95(plain));
          r?.none.push(p95(none));
          const fmt = (values: Array<number | null>) => `p95 ${p95(values).toFixed(1)} median ${median(values).toFixed(1)} (${values.length} keys)`;
          process.stdout.write(`round ${round + 1} ${entry}: plain ${fmt(plain)}; no-customer ${fmt(none)}; ${hostCpu}; load ${load}-${loadNow()}\n`);
        } finally {
          await fresh.close();
          await stopProcess(host.child);
        }
      }
    }
  },
  { accounts: BOOK_ACCOUNTS },
);

for (const [entry, r] of results) {
  process.stdout.write(`${entry}: plain p95s ${r.plain.map((v) => v.toFixed(1)).join(' / ')} (median ${median(r.plain).toFixed(1)}); no-customer p95s ${r.none.map((v) => v.toFixed(1)).join(' / ')} (median ${median(r.none).toFixed(1)})\n`);
}
