import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * One IPC call a traced host took (host-stall-trace.ts): its channel, when its request reached the host and when its
 * answer was written (epoch ms, as Date.now). Here, not there: importing that module installs its message listener.
 */
export const TracedRequest = z.object({ channel: z.string(), arrivedAt: z.number(), finishedAt: z.number().nullable() });
export type TracedRequest = z.infer<typeof TracedRequest>;

/** One stretch of the main thread that did not return to the event loop, with what ran in it. */
export interface TracedStall {
  readonly ms: number;
  /** When it began (epoch ms, as Date.now). */
  readonly at: number;
  /** How much of it the profiler saw this thread run (the rest it waited for a core, or the profiler missed). */
  readonly sampledMs: number;
  /** The app's functions (electron/, shared/) seen innermost in the stretch's samples, by time, longest first. */
  readonly inApp: ReadonlyArray<readonly [string, number]>;
  /** The functions that spent the stretch's time themselves (SQLite, JSON.parse, zod...), longest first. */
  readonly self: ReadonlyArray<readonly [string, number]>;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface Profile {
  readonly startTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * Names the code behind each long stall of this thread (STALL_TRACE=1 in
 * bench/refresh-stall): a 1 ms timer notes when the event loop turns, and
 * V8's sampling profiler runs in this process meanwhile; a gap between two
 * turns over `overMs` is one stall, and the samples inside it say which code
 * ran (few samples in a long gap: the process waited for a core).
 * monitorEventLoopDelay says how long; this says where.
 */
export async function traceStalls<T>(work: () => Promise<T>, overMs: number): Promise<{ value: T; stalls: TracedStall[] }> {
  const trace = await startStallTrace();
  try {
    const value = await work();
    return { value, stalls: await trace.stop(overMs) };
  } finally {
    // Ends the profiler when the work threw (after the stop above, the same answer again).
    await trace.stop(overMs);
  }
}

/** A trace under way (startStallTrace); stop() ends it and answers its stalls, longest first (again: the same answer). */
export interface StallTrace {
  stop(overMs: number): Promise<TracedStall[]>;
}

/**
 * traceStalls' trace begun now and ended by the caller, for a trace that is asked for from outside the
 * process (bench/support/host-stall-trace.ts, in the browser host).
 */
export async function startStallTrace(): Promise<StallTrace> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  const turns: number[] = [];
  // The epoch at the monotonic clock's zero, so a stall can be placed beside the bench's own (Date.now) marks.
  const epochMsAtZero = Date.now() - nowMicros() / 1000;
  const heartbeat = setInterval(() => turns.push(nowMicros()), 1);
  let stopped: Promise<TracedStall[]> | undefined;
  const stop = async (overMs: number): Promise<TracedStall[]> => {
    clearInterval(heartbeat);
    try {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
      return stallsIn(profile, turns, overMs, epochMsAtZero);
    } finally {
      session.disconnect();
    }
  };
  return { stop: (overMs) => (stopped ??= stop(overMs)) };
}

/** The monotonic clock the profiler's timestamps use, in microseconds. */
function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function stallsIn(profile: Profile, turns: readonly number[], overMs: number, epochMsAtZero: number): TracedStall[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((at += delta));
  const stalls: TracedStall[] = [];
  let sample = 0;
  for (let i = 1; i < turns.length; i += 1) {
    const from = turns[i - 1] as number;
    const to = turns[i] as number;
    if (to - from <= overMs * 1000) continue;
    while (sample < times.length && (times[sample] as number) < from) sample += 1;
    const first = sample;
    while (sample < times.length && (times[sample] as number) <= to) sample += 1;
    stalls.push({ ...describe(profile, times, byId, parent, first, sample, (to - from) / 1000), at: epochMsAtZero + from / 1000 });
  }
  return stalls.sort((a, b) => b.ms - a.ms);
}

function describe(profile: Profile, times: readonly number[], byId: Map<number, ProfileNode>, parent: Map<number, number>, start: number, end: number, ms: number): Omit<TracedStall, 'at'> {
  const inApp = new Map<string, number>();
  const self = new Map<string, number>();
  let sampledMs = 0;
  for (let i = start; i < end; i += 1) {
    const id = profile.samples[i] as number;
    const delta = ((times[i + 1] ?? times[i] ?? 0) - (times[i] ?? 0)) / 1000;
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
    sampledMs += delta;
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + delta);
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const node = byId.get(up);
      if (node && (/\/(electron|shared)\//.test(node.callFrame.url) || bundleModule(node.callFrame) !== undefined)) {
        inApp.set(frameName(node), (inApp.get(frameName(node)) ?? 0) + delta);
        break;
      }
    }
  }
  const top = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => [k, Math.round(v)] as const);
  return { ms, sampledMs, inApp: top(inApp), self: top(self) };
}

function frameName(node: ProfileNode): string {
  const module = bundleModule(node.callFrame);
  const file = node.callFrame.url.replace(/^.*\/(electron|shared|node_modules)\//, '$1/').replace(/^file:.*\/([^/]*dist[^/]*\/)/, '$1');
  return `${node.callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${node.callFrame.lineNumber + 1}` : ''}${module ? ` (${module})` : ''}`;
}

/** Each bundle's module markers (esbuild's `// electron/...` line before each module's code), read once. */
const bundleMarkers = new Map<string, ReadonlyArray<readonly [number, string]>>();

/**
 * The app's source module a frame of a built bundle (dist/host/host.mjs or a copy such as out/base-dist, built without source maps) lies in: the
 * last module marker before its line; undefined for any other frame, or code of the bundle outside the app's own.
 */
function bundleModule(frame: ProfileNode['callFrame']): string | undefined {
  if (!/^file:.*\/[^/]*dist[^/]*\/.*\.m?js$/.test(frame.url)) return undefined;
  let markers = bundleMarkers.get(frame.url);
  if (!markers) {
    const lines = readFileSync(fileURLToPath(frame.url), 'utf8').split('\n');
    // Every marker, so code of a module not the app's (sandbox/, a bundled package) is not taken for the one before it.
    markers = lines.flatMap((line, index) => (/^\/\/ [\w@.-]+\/\S+\.[cm]?[jt]s$/.test(line) ? [[index, line.slice(3)] as const] : []));
    bundleMarkers.set(frame.url, markers);
  }
  let found: string | undefined;
  for (const [index, module] of markers) {
    if (index > frame.lineNumber) break;
    found = module;
  }
  return found && /^(electron|shared)\//.test(found) ? found : undefined;
}

/** The stalls as lines for the bench's log: the longest few, each with where its time went. */
export function stallLines(label: string, stalls: readonly TracedStall[], count = 5): string {
  return stalls
    .slice(0, count)
    .map((s) => `  ${label}: stall ${s.ms.toFixed(0)} ms (${s.sampledMs.toFixed(0)} ms sampled running); app: ${s.inApp.map(([n, v]) => `${n} ${v}`).join(', ')}; self: ${s.self.map(([n, v]) => `${n} ${v}`).join(', ')}\n`)
    .join('');
}

/** A sync phase as the host's probe reads it: its name and when it was first seen. */
export interface SeenPhase {
  readonly phase: string;
  readonly firstAt: number;
}

/**
 * Traced stalls placed in the sync phase under way at each one's start ("before the first phase", each phase by
 * name, "after done"), the phases given in any order; the app-path and keystroke-refresh benches print them so.
 */
export function stallsByPhase(stalls: readonly TracedStall[], phases: readonly SeenPhase[]): { phases: SeenPhase[]; byPhase: Map<string, TracedStall[]> } {
  const sorted = phases.slice().sort((a, b) => a.firstAt - b.firstAt);
  const phaseAt = (at: number) => {
    const phase = sorted.filter((p) => p.firstAt <= at).at(-1);
    return !phase ? 'before the first phase' : phase.phase === 'done' ? 'after done' : phase.phase;
  };
  const byPhase = new Map<string, TracedStall[]>();
  for (const stall of stalls) {
    const phase = phaseAt(stall.at);
    byPhase.set(phase, [...(byPhase.get(phase) ?? []), stall]);
  }
  return { phases: sorted, byPhase };
}
