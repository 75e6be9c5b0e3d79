import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ENDPOINTS, buildPath } from '../shared/api/endpoints.js';
import { QUERY } from '../shared/api/contract-choices.js';
import { SANDBOX_USERS } from '../sandbox/accounts.js';
import { startSandbox } from '../sandbox/server.js';
import type { Figure } from './figure.js';

const SCALE = 100_000;
const PAGE_SIZE = 100;
const CONNECTIONS = 16;
/** Per measured round; three rounds per server, alternating, so a noisy neighbour hits both alike. */
const DURATION_MS = Number(process.env['SANDBOX_BENCH_MS'] ?? 1500);
const ROUNDS = 3;
const WARMUP_MS = 500;
const GOAL_RATIO = 0.5;

interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly elapsedMs: number;
  readonly p50: number;
  readonly p99: number;
  /** Busy time of the main thread (where the server runs) per request, in µs. */
  readonly serverUsPerRequest?: number;
}

/**
 * The load generator runs in a worker thread, so the server under test has
 * the main thread's event loop to itself; the bare server gets the same.
 * Plain CommonJS on purpose: a worker started from source has no TypeScript loader.
 */
const LOAD_GENERATOR = `
(async () => {
  // Inside the function: top-level consts of an eval worker would shadow globals undici reads.
  const { parentPort, workerData } = require('node:worker_threads');
  const { Pool } = require('undici');
  const { origin, paths, headers, connections, durationMs } = workerData;
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  async function loop() {
    while (performance.now() < deadline) {
      const path = paths[next++ % paths.length];
      const t = performance.now();
      try {
        const { statusCode, body } = await pool.request({ path, method: 'GET', headers });
        await body.dump({ limit: Infinity }).catch(() => body.text());
        if (statusCode !== 200) errors++;
      } catch { errors++; }
      latencies.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsedMs = performance.now() - started;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  parentPort.postMessage({ requests: latencies.length, errors, elapsedMs, p50: at(0.5), p99: at(0.99) });
})().catch((error) => { throw error; });
`;

function load(origin: string, paths: readonly string[], headers: Record<string, string>, durationMs: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_GENERATOR, {
      eval: true,
      workerData: { origin, paths, headers, connections: CONNECTIONS, durationMs },
    });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
  });
}

/** A node:http server that answers every request with one fixed body: the ceiling for that body size. */
async function bareServer(body: Buffer): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function round(origin: string, paths: readonly string[], headers: Record<string, string>): Promise<LoadResult> {
  // The event loop's busy time is the server's own cost, whatever else the machine is doing.
  const before = performance.eventLoopUtilization();
  const result = await load(origin, paths, headers, DURATION_MS);
  const busy = performance.eventLoopUtilization(before);
  if (result.errors > 0) throw new Error(`${result.errors} failed requests against ${origin}`);
  return { ...result, serverUsPerRequest: (busy.active * 1000) / result.requests };
}

const rps = (result: LoadResult) => result.requests / result.elapsedMs;

/** The median round by throughput. */
function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => rps(a) - rps(b))[Math.floor(results.length / 2)] as LoadResult;
}

/** Warms both servers up, then alternates rounds between them. */
async function compare(
  sandboxOrigin: string,
  bareOrigin: string,
  paths: readonly string[],
  headers: Record<string, string>,
): Promise<{ sandbox: LoadResult; bare: LoadResult }> {
  await load(sandboxOrigin, paths, headers, WARMUP_MS);
  await load(bareOrigin, paths, headers, WARMUP_MS);
  const sandbox: LoadResult[] = [];
  const bare: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    sandbox.push(await round(sandboxOrigin, paths, headers));
    bare.push(await round(bareOrigin, paths, headers));
  }
  return { sandbox: median(sandbox), bare: median(bare) };
}

const fixed = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

function figures(label: string, bytes: number, sandbox: LoadResult, bare: LoadResult): Figure[] {
  const sandboxRps = (sandbox.requests / sandbox.elapsedMs) * 1000;
  const bareRps = (bare.requests / bare.elapsedMs) * 1000;
  const ratio = sandboxRps / bareRps;
  return [
    { name: `${label}: sandbox throughput`, value: fixed(sandboxRps), unit: 'req/s' },
    { name: `${label}: sandbox p50`, value: fixed(sandbox.p50, 2), unit: 'ms' },
    { name: `${label}: sandbox p99`, value: fixed(sandbox.p99, 2), unit: 'ms' },
    { name: `${label}: bare node:http throughput (${fixed(bytes / 1024, 1)} KB body)`, value: fixed(bareRps), unit: 'req/s' },
    { name: `${label}: bare node:http p50`, value: fixed(bare.p50, 2), unit: 'ms' },
    { name: `${label}: bare node:http p99`, value: fixed(bare.p99, 2), unit: 'ms' },
    {
      name: `${label}: sandbox / bare`,
      value: fixed(ratio * 100, 1),
      unit: '%',
      budget: `>= ${GOAL_RATIO * 100} %`,
      withinBudget: ratio >= GOAL_RATIO,
    },
    { name: `${label}: sandbox server time per request`, value: fixed(sandbox.serverUsPerRequest ?? 0, 1), unit: 'µs' },
    { name: `${label}: bare server time per request`, value: fixed(bare.serverUsPerRequest ?? 0, 1), unit: 'µs' },
  ];
}

/**
 * Throughput and latency of the capacities list (pageSize 100) and of describe
 * on a 100,000-policy sandbox, against a bare node:http server answering a
 * constant body of the same size, in the same run.
 */
export default async function sandboxThroughput(): Promise<Figure[]> {
  const sandbox = await startSandbox({ scale: SCALE });
  const user = SANDBOX_USERS[0];
  if (!user) throw new Error('no seeded user');
  try {
    const signIn = await fetch(sandbox.url + ENDPOINTS.signIn.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const headers = { authorization: `Bearer ${token}` };

    const firstPage = await fetch(`${sandbox.url}${ENDPOINTS.listCapacities.path}?${QUERY.pageSize}=${PAGE_SIZE}`, { headers });
    const { total } = (await firstPage.json()) as { total: number };
    const pages = Math.floor(total / PAGE_SIZE);
    // Pages spread over the whole list, both orders, so no single slice is all that is measured.
    const listPaths = Array.from({ length: 256 }, (_, i) => {
      const page = 1 + ((i * 7919) % pages);
      return `${ENDPOINTS.listCapacities.path}?${QUERY.page}=${page}&${QUERY.pageSize}=${PAGE_SIZE}&${QUERY.sortOrder}=${i % 2 ? 'asc' : 'desc'}`;
    });
    const sample = await fetch(sandbox.url + (listPaths[0] as string), { headers });
    const listBody = Buffer.from(await sample.arrayBuffer());
    const ids = ((JSON.parse(listBody.toString()) as { data: { cidrId: string }[] }).data).map((p) => p.cidrId);
    const describePaths = ids.map((id) => buildPath(ENDPOINTS.describeCapacity.path, { cidr_id: id }));
    const describeBody = Buffer.from(await (await fetch(sandbox.url + (describePaths[0] as string), { headers })).arrayBuffer());

    const out: Figure[] = [];
    for (const [label, paths, body] of [
      [`capacities list, pageSize ${PAGE_SIZE}, ${SCALE.toLocaleString('en-US')} policies`, listPaths, listBody],
      [`describe, ${SCALE.toLocaleString('en-US')} policies`, describePaths, describeBody],
    ] as const) {
      const bare = await bareServer(body);
      try {
        const result = await compare(sandbox.url, bare.origin, paths, headers);
        out.push(...figures(label, body.length, result.sandbox, result.bare));
      } finally {
        await bare.close();
      }
    }
    return out;
  } finally {
    await sandbox.close();
  }
}
