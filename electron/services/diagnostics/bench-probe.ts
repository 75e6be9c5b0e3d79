import { monitorEventLoopDelay } from 'node:perf_hooks';
import { z } from 'zod';
import type { EventPayload } from '../../../shared/ipc/contract.js';
import type { AppEvents } from '../events.js';
import { launchMarks } from './launch-marks.js';

/**
 * Set to 1 by bench/ only. Off by default, and only the browser host reads it
 * (the Electron main process never starts the probe), so no release build
 * answers it.
 */
export const BENCH_PROBE_ENV = 'CAPACITY_DESK_BENCH_PROBE';

export const BenchProbeRequest = z.object({ benchProbe: z.enum(['reset', 'read']) });
export type BenchProbeRequest = z.infer<typeof BenchProbeRequest>;

export const BenchProbeReading = z.object({
  benchProbe: z.literal('reading'),
  /** Longest event-loop delay since the last reset: the main process's longest stall, in one piece. */
  maxStallMs: z.number(),
  p99StallMs: z.number(),
  /** Epoch ms at which each sync phase was first and last reported since the last reset, and its last count. */
  phases: z.array(z.object({ phase: z.string(), firstAt: z.number(), lastAt: z.number(), lastFetched: z.number() })),
  /** Epoch ms at which each step of the process's start was first reached (launch-marks.ts). */
  launch: z.array(z.object({ step: z.string(), at: z.number() })),
  /** CPU time (user + system) the process has used since it started, in ms: a figure the machine's load stretches less than wall time. */
  cpuMs: z.number(),
});
export type BenchProbeReading = z.infer<typeof BenchProbeReading>;

/**
 * What a benchmark cannot see from outside the process: the event loop's
 * delays (monitorEventLoopDelay) and when the sync's phases began, from the
 * progress events the renderer also receives. Talks over the IPC channel of
 * the process that started the host, never over the network.
 */
export function startBenchProbe(events: AppEvents): void {
  const send = process.send?.bind(process);
  if (process.env[BENCH_PROBE_ENV] !== '1' || !send) return;
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  let phases = new Map<string, { firstAt: number; lastAt: number; lastFetched: number }>();
  events.subscribe((event, payload) => {
    if (event !== 'offline.syncProgress') return;
    const { phase, fetched } = payload as EventPayload<'offline.syncProgress'>;
    const now = Date.now();
    const seen = phases.get(phase);
    if (seen) Object.assign(seen, { lastAt: now, lastFetched: fetched });
    else phases.set(phase, { firstAt: now, lastAt: now, lastFetched: fetched });
  });
  process.on('message', (message: unknown) => {
    const request = BenchProbeRequest.safeParse(message);
    if (!request.success) return;
    if (request.data.benchProbe === 'reset') {
      delays.reset();
      phases = new Map();
    }
    const reading: BenchProbeReading = {
      benchProbe: 'reading',
      maxStallMs: delays.max / 1e6,
      p99StallMs: delays.percentile(99) / 1e6,
      phases: [...phases].map(([phase, at]) => ({ phase, ...at })),
      launch: launchMarks(),
      cpuMs: cpuMs(),
    };
    send(reading);
  });
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
