import { constants, monitorEventLoopDelay, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { createHttpAgent } from '../../electron/services/api-client/http-agent.js';
import { DriftLog } from '../../electron/services/diagnostics/drift-log.js';
import type { ReplicaSyncDeps } from '../../electron/services/replica/replica-sync.js';
import type { SyncProgress } from '../../shared/ipc/offline.js';
import { memoryLine, watchMemoryPeak } from './memory-peak.js';
import { stallLines, traceStalls } from './stall-tracer.js';

/** The owner of the bench's copies (one data folder per run). */
export const BENCH_OWNER = { profileId: 'bench', username: 'stall@example.com' };
export const STALL_GOAL_MS = 50;
/** The tracer names stretches over this (STALL_TRACE_OVER_MS; the goal by default): lower it to see what sits under the goal. */
const TRACE_OVER_MS = Number(process.env.STALL_TRACE_OVER_MS ?? STALL_GOAL_MS);

export interface Watched<T> {
  readonly value: T;
  readonly ms: number;
  readonly stallMs: number;
  readonly peakRssMb: number;
}

/** The sync's phase as its progress last said it (where the memory peak came). */
let phaseNow = 'start';
export const progressed = (p: SyncProgress): void => {
  phaseNow = `${p.phase} ${p.fetched}/${p.total}`;
};

/**
 * The API client as the app's main process makes it (app-services.ts): its own agent, and every answer compared with
 * the expected shape for the drift log. Without the listener the client skips that check, which the app runs on every
 * page (a strict parse of the page and a walk of its fields): a bench without it timed less than the app does.
 */
export function appLikeClient(baseUrl: string): ApiClient {
  const drift = new DriftLog({ log: () => undefined });
  return new ApiClient({ baseUrl, dispatcher: createHttpAgent(), onDrift: (endpoint, findings) => drift.record(endpoint, findings) });
}

/** What refreshReplica needs of the app: a session that runs calls with the bench user's token. */
export function benchSyncDeps(client: ApiClient, token: string): ReplicaSyncDeps {
  return {
    session: {
      status: () => ({ signedIn: true, profileId: BENCH_OWNER.profileId, username: BENCH_OWNER.username, keychain: { kind: 'keychain' as const } }),
      authorized: (work) => work(client, token),
    } as ReplicaSyncDeps['session'],
    logger: { warn: () => undefined },
  };
}

/**
 * Runs `work` while watching the event loop's longest stall and the process's resident memory, and prints where
 * the memory was at its peak when labelled (with `trace`, also the code that ran in the longest stalls).
 */
export async function watched<T>(work: () => Promise<T>, label = '', trace = false): Promise<Watched<T>> {
  if (!trace || !label) return watchedOnly(work, label);
  const traced = await traceStalls(() => watchedOnly(work, label), TRACE_OVER_MS);
  process.stderr.write(stallLines(label, traced.stalls));
  return traced.value;
}

async function watchedOnly<T>(work: () => Promise<T>, label: string): Promise<Watched<T>> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  phaseNow = 'start';
  const memory = watchMemoryPeak(() => phaseNow);
  const collections = watchCollections();
  delay.enable();
  const started = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - started;
    const peak = memory.stop();
    if (label) process.stderr.write(`${memoryLine(label, peak)}  ${label}: ${collections.line()}\n`);
    return { value, ms, stallMs: delay.max / 1e6, peakRssMb: peak.rssMb };
  } finally {
    delay.disable();
    memory.stop();
    collections.stop();
  }
}

/**
 * The garbage collector's pauses of this thread while `work` runs (V8's own timings, through perf_hooks): the
 * longest and their sum, by kind, so a stall can be set beside the pause inside it (printed, not a figure).
 */
function watchCollections(): { line(): string; stop(): void } {
  const byKind = new Map<string, { count: number; totalMs: number; longestMs: number }>();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind) ?? 0] ?? 'other';
      const seen = byKind.get(kind) ?? { count: 0, totalMs: 0, longestMs: 0 };
      byKind.set(kind, { count: seen.count + 1, totalMs: seen.totalMs + entry.duration, longestMs: Math.max(seen.longestMs, entry.duration) });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    line: () =>
      `GC pauses ${[...byKind.entries()].map(([kind, s]) => `${kind} ${s.count}x, longest ${s.longestMs.toFixed(1)} ms, sum ${s.totalMs.toFixed(0)} ms`).join('; ') || 'none'}`,
    stop: () => observer.disconnect(),
  };
}

/** perf_hooks' constants.NODE_PERFORMANCE_GC_* by value (minor: a scavenge of the young generation; major: mark-compact). */
const GC_KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
