import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import type { Page } from '@playwright/test';
import { BENCH_PROBE_ENV, BenchProbeReading, type BenchProbeRequest } from '../../electron/services/diagnostics/bench-probe.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';

/**
 * The app as a person uses it, for the benchmarks that time it through the
 * page: the browser host (dist/host, as `npm start` starts it) with the bench
 * probe, the sign-in, and one keystroke of the capacity list's search timed
 * from the input event to the frame painted.
 */
const alex = SANDBOX_USERS[0]!;

/** In-page: resolves after the frame that follows the change has been laid out and painted (rAF, then a task). */
export const AFTER_PAINT = `(resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0))`;

export interface Host {
  readonly child: ChildProcess;
  readonly launchUrl: string;
  readonly spawnedAt: number;
  probe(request: BenchProbeRequest['benchProbe']): Promise<BenchProbeReading>;
}

/**
 * The host as `npm start` builds it; another build's host.mjs (a copy of an earlier dist/) can be timed beside it,
 * or BENCH_DIST names that build (a copy inside this folder, so its packages resolve) for the whole bench.
 */
export const HOST_ENTRY = `${process.env.BENCH_DIST ?? 'dist'}/host/host.mjs`;

let stallTraceModule: string | undefined;

/**
 * Node's arguments that load the host's stall tracer (bench/support/host-stall-trace.ts) into a host: the tracer
 * bundled once a process into one plain module, loaded without tsx. Under `--import tsx` the host ran otherwise than
 * as `npm start` runs it: tsx compiled host.mjs again with a source map of its own and turned Node's source maps on,
 * so the first read of an error's stack (the file logger writing a failed page) parsed that map on the main thread,
 * a 4,256 ms turn of the 1M first sync's trace (branch curve17) that the app itself never has; and the profile's
 * lines were those of tsx's output, not of the bundle the tracer reads module markers from.
 */
export function hostStallTraceArgs(): readonly string[] {
  if (!stallTraceModule) {
    stallTraceModule = join(mkdtempSync(join(tmpdir(), 'cd-bench-tracer-')), 'host-stall-trace.mjs');
    buildSync({
      entryPoints: [fileURLToPath(new URL('./host-stall-trace.ts', import.meta.url))],
      outfile: stallTraceModule,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
  }
  return ['--import', pathToFileURL(stallTraceModule).href];
}

export async function startHost(dataDir: string, entry: string = HOST_ENTRY, extraNodeArgs: readonly string[] = []): Promise<Host> {
  const spawnedAt = Date.now();
  // BENCH_HOST_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=prof") profiles the host: Node refuses --cpu-prof in NODE_OPTIONS.
  const nodeArgs = [...(process.env.BENCH_HOST_NODE_ARGS ?? '').split(' ').filter(Boolean), ...extraNodeArgs];
  const child = spawn(process.execPath, [...nodeArgs, entry, '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, [BENCH_PROBE_ENV]: '1' },
  });
  child.stderr?.resume();
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  let launchUrl = '';
  for await (const line of lines) {
    if (/Keychain:/.test(line)) throw new Error(`the host has no keychain, so the replica cannot be reopened: run the bench through scripts/with-keychain.sh (${line})`);
    const match = /(http:\/\/\S+\/__launch\?\S+)/.exec(line);
    if (match) {
      launchUrl = match[1] as string;
      break;
    }
  }
  lines.close();
  child.stdout?.resume();
  if (!launchUrl) throw new Error('the host ended before it printed a launch address');
  const probe = (request: BenchProbeRequest['benchProbe']) =>
    new Promise<BenchProbeReading>((resolve) => {
      child.once('message', (message) => resolve(BenchProbeReading.parse(message)));
      child.send({ benchProbe: request } satisfies BenchProbeRequest);
    });
  return { child, launchUrl, spawnedAt, probe };
}

export async function waitForPhase(host: Host, phase: string, timeoutMs: number): Promise<BenchProbeReading> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reading = await host.probe('read');
    if (reading.phases.some((p) => p.phase === phase)) return reading;
    if (Date.now() > deadline) {
      const reached = reading.phases.map((p) => `${p.phase} ${p.lastFetched}`).join(', ') || 'none';
      throw new Error(`no sync phase "${phase}" within ${timeoutMs} ms (phases reached, with their last count: ${reached})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Username or e-mail').fill(alex.username);
  await page.getByLabel('Password').fill(alex.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * One keystroke in the list's search: from the input event to the frame painted
 * after the table shows its answer (the table is aria-busy from the keystroke
 * until then; a refresh may replace the table meanwhile, so it is looked up
 * anew). Null when no answer came within 10 s.
 */
export function keystroke(page: Page, text: string): Promise<number | null> {
  return changeToPaint(page, '[data-testid="list-search"]', `() => ${JSON.stringify(text)}`, 'input');
}

/**
 * The list's customer filter set to the customer named `name` (its option's text), timed as a keystroke is:
 * the customer filter's first rows.
 */
export function chooseCustomer(page: Page, name: string): Promise<number | null> {
  return changeToPaint(page, '[data-testid="customer-filter"]', `(select) => [...select.options].find((option) => option.text === ${JSON.stringify(name)})?.value ?? ''`, 'change');
}

/** Sets the control `selector` finds to what `valueOf` (in-page, given the control) answers, and times the table's answer to its paint. */
async function changeToPaint(page: Page, selector: string, valueOf: string, event: 'input' | 'change'): Promise<number | null> {
  // Polled from here: the app's CSP refuses the eval that waitForFunction's string predicates use.
  for (let waited = 0; (await page.evaluate(`document.querySelector('[data-testid="capacity-table"]')?.getAttribute('aria-busy')`)) !== 'false'; waited += 20) {
    if (waited > 30_000) throw new Error('the capacity table stayed busy for 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (await page.evaluate(`new Promise((resolve) => {
    const control = document.querySelector(${JSON.stringify(selector)});
    // The table looked up again only once it has left the page: an attribute selector walks the whole page (its
    // customer filter alone holds 2,000 options), and this runs on every mutation batch inside the key's wait.
    let known = null;
    const table = () => (known?.isConnected ? known : (known = document.querySelector('[data-testid="capacity-table"]')));
    const before = table();
    let sawBusy = false;
    const started = performance.now();
    const observer = new MutationObserver(() => {
      const now = table();
      sawBusy ||= !now || now !== before || now.getAttribute('aria-busy') === 'true';
      if (sawBusy && now && now.getAttribute('aria-busy') === 'false') {
        observer.disconnect();
        (${AFTER_PAINT})(() => resolve(performance.now() - started));
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
    // For a breakdown of the wait (requestPart: resource timings are on the same clock).
    performance.clearResourceTimings();
    performance.mark('bench-start');
    control.value = (${valueOf})(control);
    control.dispatchEvent(new Event(${JSON.stringify(event)}, { bubbles: true }));
    setTimeout(() => { observer.disconnect(); resolve(null); }, 10000);
  })`)) as number | null;
}

/**
 * Times the keystrokes of the list's search as a person makes them (typeOnSchedule): each from its keydown's
 * timestamp, when the browser made the event (time queued behind the page's own work counts), to the frame
 * painted after the table next shows an answer (aria-busy seen after the key, then cleared). A key overtaken by
 * the next is timed to the answer painted after both: what the person waited for. Installed once per page.
 */
export async function startKeyTimer(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    if (window.__benchKeys) return;
    const state = { pending: [], done: [], lastKeyDown: null, table: null };
    window.__benchKeys = state;
    // Each element looked up again only once it has left the page (keys14): an attribute selector walks the whole
    // page (the customer filter alone holds 2,000 options), and these ran several times a key inside its wait, in the
    // key's input task and after each answer's update: the bench's own work, about a fifth of the page's JavaScript
    // a key in a V8 profile (3.9 of 20 ms at load 36), which the person typing does not wait for.
    const kept = (selector) => { let known = null; return () => (known?.isConnected ? known : (known = document.querySelector(selector))); };
    const search = kept('[data-testid="list-search"]');
    const table = kept('[data-testid="capacity-table"]');
    const busy = () => { const now = table(); return !now || now.getAttribute('aria-busy') === 'true'; };
    document.addEventListener('keydown', (event) => { if (event.target === search()) state.lastKeyDown = event.timeStamp; }, true);
    // Capture phase, before the app's own handler: a table already busy will answer this key's text too.
    document.addEventListener('input', (event) => {
      if (event.target !== search()) return;
      state.pending.push({ at: state.lastKeyDown ?? event.timeStamp, sawBusy: busy() });
      state.lastKeyDown = null;
    }, true);
    new MutationObserver(() => {
      const now = table();
      if (busy() || now !== state.table) {
        state.table = now;
        for (const key of state.pending) key.sawBusy = true;
        if (busy()) return;
      }
      const answered = state.pending.filter((key) => key.sawBusy);
      if (answered.length === 0) return;
      state.pending = state.pending.filter((key) => !key.sawBusy);
      (${AFTER_PAINT})(() => { const at = performance.now(); for (const key of answered) state.done.push(at - key.at); });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  })()`);
}

/**
 * Types `count` keystrokes into the list's search through Chromium's own key events, one every `everyMs` on a
 * fixed schedule whatever the app is doing (a person does not wait for the table between keys), words from
 * `words` in turn, each word's field cleared first (that Backspace is a keystroke too); stops early once
 * `keepGoing` says so. The timings are read with takeKeyTimings.
 */
export async function typeOnSchedule(page: Page, words: readonly string[], count: number, everyMs: number, keepGoing: () => boolean = () => true): Promise<number> {
  const search = page.getByTestId('list-search');
  await search.focus();
  const started = Date.now();
  let typed = 0;
  const nextSlot = async () => {
    const wait = started + typed * everyMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
  for (let word = 0; typed < count && keepGoing(); word += 1) {
    const text = words[word % words.length] as string;
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    typed += 1;
    for (const char of text) {
      if (typed >= count || !keepGoing()) break;
      await nextSlot();
      await page.keyboard.type(char);
      typed += 1;
    }
    await nextSlot();
  }
  return typed;
}

/** The keystrokes timed since the last call (null: no answer painted within 10 s of the typing's end); clears them. */
export async function takeKeyTimings(page: Page): Promise<Array<number | null>> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (((await page.evaluate('window.__benchKeys.pending.length')) as number) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // One frame more: a paint already asked for adds its keys.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return (await page.evaluate(`(() => {
    const state = window.__benchKeys;
    const taken = [...state.done, ...state.pending.map(() => null)];
    state.done = [];
    state.pending = [];
    return taken;
  })()`)) as Array<number | null>;
}

export async function openList(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Capacity policies', exact: true }).click();
  await page.getByTestId('list-search').and(page.locator(':enabled')).waitFor({ timeout: 120_000 });
}

/** The last user action's wait taken apart: until the request of `channel` left, its round trip (host and HTTP), and the page's part after its answer. */
export interface WaitParts {
  readonly toRequest: number;
  readonly roundTrip: number;
  readonly afterAnswer: number;
  /** Of the round trip, the host's dispatch (input check, handler, output check), from its Server-Timing; the rest is HTTP and JSON. */
  readonly host: number | null;
}

/**
 * The parts of the wait `total` (ms) that began at the last \`bench-start\` mark, from the resource timing of the
 * first request of `channel` after it; null when no such request was made.
 */
export async function requestPart(page: Page, channel: string, total: number | null): Promise<WaitParts | null> {
  if (total === null) return null;
  return (await page.evaluate(`(() => {
    const mark = performance.getEntriesByName('bench-start').at(-1);
    if (!mark) return null;
    const request = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/ipc/' + ${JSON.stringify(channel)}) && entry.startTime >= mark.startTime);
    if (!request) return null;
    const host = request.serverTiming.find((timing) => timing.name === 'dispatch');
    return { toRequest: request.startTime - mark.startTime, roundTrip: request.responseEnd - request.startTime, afterAnswer: mark.startTime + ${total} - request.responseEnd, host: host ? host.duration : null };
  })()`)) as WaitParts | null;
}
