import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { deserialize, serialize } from 'node:v8';
import { Pool } from 'undici';
import { ApiClient } from '../electron/services/api-client/api-client.js';
import { createHttpAgent } from '../electron/services/api-client/http-agent.js';
import { SYNC_CONCURRENCY, SYNC_PAGE_SIZE, syncCapacities, type Authorized } from '../electron/services/bulk/capacity-sync.js';
import { CapacityPage, type CapacityPolicy } from '../shared/api/capacity.js';
import { API_PREFIX, QUERY } from '../shared/api/contract-choices.js';
import { ENDPOINTS } from '../shared/api/endpoints.js';
import { SANDBOX_USERS } from '../sandbox/accounts.js';
import type { Figure } from './figure.js';

/** Seeded policies in all; the first user holds about 60 % of them, so a little over 10,000. */
const SCALE = 17_000;
/** A round trip to a real service over a WAN, put in by the sandbox's latency fault. */
const WAN_RTT_MS = 25;
const GOAL_SPEEDUP = 5;
/** The old goal (a share of the sandbox's own throughput), kept as context: no client that parses JSON reaches it on two cores. */
const GOAL_SHARE_OF_SANDBOX = 0.5;
/**
 * Issue 15's goal: a full sync of 100,000 policies over a 50 ms round trip
 * reaches this share of the throughput of a client that only runs JSON.parse
 * on the same pages, fetched with the same concurrency, in the same run.
 */
const FULL_SCALE = 170_000;
const FULL_RTT_MS = 50;
const GOAL_SHARE_OF_PARSE_ONLY = 0.7;
const FULL_ROUNDS = 2;
/**
 * Both processes' JITs keep speeding up for a dozen full passes: every
 * contender runs this many times before anything is timed, so none of them
 * is measured against a colder (or warmer) sandbox than the others.
 */
const WARMUP_ROUNDS = 12;
/** Loopback rounds, each running every contender once in turn; the best of each counts. */
const LOOPBACK_ROUNDS = 8;
/** WAN rounds: each takes seconds, and latency dwarfs the noise. */
const WAN_ROUNDS = 3;
/** The load generator's connections: enough to keep the sandbox busy, as its own bench does. */
const LOAD_CONNECTIONS = 16;

interface SandboxProcess {
  readonly url: string;
  readonly child: ChildProcess;
}

/**
 * The sandbox in its own process, as the real service would be: the client's
 * parsing and the server's work do not share one event loop.
 */
async function startSandboxProcess(scale = SCALE): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--scale', String(scale), '--controls', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const match = /Sandbox listening on (http:\/\/\S+)/.exec(line);
    if (match) {
      lines.close();
      child.stdout?.resume();
      return { url: match[1] as string, child };
    }
  }
  throw new Error('the sandbox process ended before it listened');
}

async function setLatency(url: string, latencyMs: number): Promise<void> {
  await fetch(`${url}/sandbox/faults`, { method: 'DELETE' });
  if (latencyMs === 0) return;
  const answer = await fetch(`${url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pathPrefix: `${API_PREFIX}/flexcompute/capacities`, latencyMs }),
  });
  if (answer.status !== 201) throw new Error(`could not set the latency fault: ${answer.status}`);
}

/**
 * A full sync of a user with about 100,000 policies over a 50 ms round trip,
 * through the app's client (undici, zod), against a client that only fetches
 * the same pages with the same concurrency and runs JSON.parse on each: the
 * most any client could do over that link on this machine.
 */
async function fullSyncAgainstParseOnly(): Promise<Figure[]> {
  const sandbox = await startSandboxProcess(FULL_SCALE);
  const client = new ApiClient({ baseUrl: sandbox.url, dispatcher: createHttpAgent() });
  const pool = new Pool(sandbox.url, { connections: SYNC_CONCURRENCY });
  try {
    const user = SANDBOX_USERS[0];
    if (!user) throw new Error('no seeded user');
    const { access_token: token } = await client.call('signIn', { body: { username: user.username, password: user.password } });
    const session: Authorized = { authorized: (work) => work(client, token) };
    const policies = (await syncCapacities(session)).rows.length;
    const paths = pagePaths(Math.ceil(policies / SYNC_PAGE_SIZE));
    await setLatency(sandbox.url, FULL_RTT_MS);
    const best = await interleaved(FULL_ROUNDS, {
      parseOnly: () => fetchEveryPage(pool, token, paths, SYNC_CONCURRENCY, (text) => JSON.parse(text)),
      sync: () => syncCapacities(session),
    });
    const share = best.parseOnly / best.sync;
    return [
      { name: `full sync at ${FULL_RTT_MS} ms round trip: policies`, value: policies, unit: 'policies' },
      { name: `full sync at ${FULL_RTT_MS} ms round trip: the app's client`, value: round(best.sync), unit: 'ms' },
      { name: `full sync at ${FULL_RTT_MS} ms round trip: JSON.parse-only client, same pages and concurrency`, value: round(best.parseOnly), unit: 'ms' },
      {
        name: `full sync at ${FULL_RTT_MS} ms round trip: app's client / JSON.parse-only throughput`,
        value: round(share * 100, 1),
        unit: '%',
        budget: `>= ${GOAL_SHARE_OF_PARSE_ONLY * 100} %`,
        withinBudget: share >= GOAL_SHARE_OF_PARSE_ONLY,
      },
    ];
  } finally {
    await pool.close();
    await client.close();
    sandbox.child.kill();
    if (sandbox.child.exitCode === null) await once(sandbox.child, 'exit');
  }
}

/** The plain way: one page after another. */
async function sequentialSync(session: Authorized): Promise<CapacityPolicy[]> {
  const all: CapacityPolicy[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await session.authorized((client, token) =>
      client.call('listCapacities', { token, query: { page, pageSize: SYNC_PAGE_SIZE, sortOrder: 'asc' } }),
    );
    all.push(...answer.data);
    if (answer.data.length === 0 || all.length >= answer.total) return all;
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Runs each contender once per round, in turn, and keeps each one's best time. */
async function interleaved<K extends string>(rounds: number, contenders: Record<K, () => Promise<unknown>>): Promise<Record<K, number>> {
  const names = Object.keys(contenders) as K[];
  const fastest = Object.fromEntries(names.map((name) => [name, Number.POSITIVE_INFINITY])) as Record<K, number>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) fastest[name] = Math.min(fastest[name], await timed(contenders[name]));
  }
  return fastest;
}

function pagePaths(pages: number): string[] {
  return Array.from(
    { length: pages },
    (_, i) => `${ENDPOINTS.listCapacities.path}?${QUERY.page}=${i + 1}&${QUERY.pageSize}=${SYNC_PAGE_SIZE}&${QUERY.sortOrder}=asc`,
  );
}

/**
 * Every page requested by `connections` loops at once, each answer's body read
 * as text and handed to `use`. With `use` a no-op this is a raw load generator:
 * the sandbox's own throughput for the very same pages.
 */
async function fetchEveryPage(pool: Pool, token: string, paths: readonly string[], connections: number, use: (text: string) => void): Promise<void> {
  let next = 0;
  const loop = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const { statusCode, body } = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${token}` } });
      const text = await body.text();
      if (statusCode !== 200) throw new Error(`load generator got ${statusCode}`);
      use(text);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
}

/** Mean time of `work` over many runs on one thread, after a warm-up. */
function msPerRun(work: () => unknown, runs = 300): number {
  for (let i = 0; i < runs / 3; i++) work();
  const started = performance.now();
  for (let i = 0; i < runs; i++) work();
  return (performance.now() - started) / runs;
}

const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Sync of every capacity policy of one user (a little over 10,000) with the
 * bulk fetch (bounded concurrency) against a plain sequential page loop, both
 * through the app's real client (undici agent, zod parsing), in the same run:
 * on loopback and with a WAN-like round trip. On loopback, the bulk fetch's
 * page rate is compared with the sandbox's own throughput for the same pages
 * (a raw load generator), measured in the same interleaved rounds; beside it,
 * what a client that only ran JSON.parse on each page could reach, and the
 * per-page costs that explain the gap.
 */
export default async function syncBench(): Promise<Figure[]> {
  const sandbox = await startSandboxProcess();
  const client = new ApiClient({ baseUrl: sandbox.url, dispatcher: createHttpAgent() });
  const pool = new Pool(sandbox.url, { connections: LOAD_CONNECTIONS });
  try {
    const user = SANDBOX_USERS[0];
    if (!user) throw new Error('no seeded user');
    const { access_token: token } = await client.call('signIn', { body: { username: user.username, password: user.password } });
    const session: Authorized = { authorized: (work) => work(client, token) };

    const check = await syncCapacities(session);
    const policies = check.rows.length;
    if (policies < 10_000) throw new Error(`expected at least 10,000 policies, got ${policies}`);
    const pages = Math.ceil(policies / SYNC_PAGE_SIZE);
    const paths = pagePaths(pages);

    const loopback = {
      sandbox: () => fetchEveryPage(pool, token, paths, LOAD_CONNECTIONS, () => undefined),
      parseOnly: () => fetchEveryPage(pool, token, paths, SYNC_CONCURRENCY, (text) => JSON.parse(text)),
      bulk: () => syncCapacities(session),
      sequential: () => sequentialSync(session),
    };
    await setLatency(sandbox.url, 0);
    await interleaved(WARMUP_ROUNDS, loopback);
    const best = await interleaved(LOOPBACK_ROUNDS, loopback);
    const rate = (ms: number) => (pages / ms) * 1000;
    const sandboxRate = rate(best.sandbox);
    const share = rate(best.bulk) / sandboxRate;
    const parseShare = rate(best.parseOnly) / sandboxRate;

    await setLatency(sandbox.url, WAN_RTT_MS);
    const wan = await interleaved(WAN_ROUNDS, { sequential: loopback.sequential, bulk: loopback.bulk });
    await setLatency(sandbox.url, 0);
    const wanSpeedup = wan.sequential / wan.bulk;

    const sample = await fetch(`${sandbox.url}${paths[0]}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
    const parsed = CapacityPage.parse(JSON.parse(sample));
    const cloned = serialize(parsed);

    const parseMs = msPerRun(() => JSON.parse(sample));
    // At the goal's page rate, the sandbox's work plus a bare JSON.parse of each page alone already needs this many cores.
    const coresAtGoal = (sandboxRate * GOAL_SHARE_OF_SANDBOX * (1000 / sandboxRate + parseMs)) / 1000;

    const figures: Figure[] = [
      { name: `policies synced (${pages} pages of ${SYNC_PAGE_SIZE}, concurrency ${SYNC_CONCURRENCY})`, value: policies, unit: 'policies' },
      { name: 'loopback: sequential page loop', value: round(best.sequential), unit: 'ms' },
      { name: 'loopback: bulk fetch', value: round(best.bulk), unit: 'ms' },
      // No round trip to hide on loopback: both are bound by one thread's CPU, so this is context only.
      { name: 'loopback: bulk / sequential speed-up', value: round(best.sequential / best.bulk, 2), unit: 'x' },
      { name: `WAN round trip ${WAN_RTT_MS} ms: sequential page loop`, value: round(wan.sequential), unit: 'ms' },
      { name: `WAN round trip ${WAN_RTT_MS} ms: bulk fetch`, value: round(wan.bulk), unit: 'ms' },
      {
        name: `WAN round trip ${WAN_RTT_MS} ms: bulk / sequential speed-up`,
        value: round(wanSpeedup, 2),
        unit: 'x',
        budget: `>= ${GOAL_SPEEDUP}x`,
        withinBudget: wanSpeedup >= GOAL_SPEEDUP,
      },
      { name: `sandbox own throughput (raw load generator, ${LOAD_CONNECTIONS} connections, same pages)`, value: round(sandboxRate), unit: 'pages/s' },
      { name: 'bulk fetch throughput (loopback, parsed and checked)', value: round(rate(best.bulk)), unit: 'pages/s' },
      // Context only: the goal moved to the share of a JSON.parse-only client (below), which any client can be held to.
      { name: `bulk fetch / sandbox throughput (old goal ${GOAL_SHARE_OF_SANDBOX * 100} %)`, value: round(share * 100, 1), unit: '%' },
      { name: 'ceiling: JSON.parse only, no check, no client / sandbox throughput', value: round(parseShare * 100, 1), unit: '%' },
      {
        name: `cores busy at the goal's rate for the sandbox + JSON.parse alone (this machine: ${availableParallelism()})`,
        value: round(coresAtGoal, 2),
        unit: 'cores',
      },
      { name: 'per page: sandbox (1 / its throughput)', value: round(1000 / sandboxRate, 3), unit: 'ms' },
      { name: `per page: JSON.parse (${round(sample.length / 1024)} KB)`, value: round(parseMs, 3), unit: 'ms' },
      { name: 'per page: schema check', value: round(msPerRun(() => CapacityPage.parse(parsed)), 3), unit: 'ms' },
      { name: 'per page: structured-clone read (a worker thread\'s hand-over)', value: round(msPerRun(() => deserialize(cloned)), 3), unit: 'ms' },
    ];
    figures.push(...(await fullSyncAgainstParseOnly()));
    for (const figure of figures) process.stderr.write(`  ${figure.name}: ${figure.value} ${figure.unit}\n`);
    return figures;
  } finally {
    await pool.close();
    await client.close();
    sandbox.child.kill();
    if (sandbox.child.exitCode === null) await once(sandbox.child, 'exit');
  }
}
