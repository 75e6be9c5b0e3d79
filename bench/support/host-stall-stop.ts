import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Host } from './app-page.js';
import type { HostStallTraceRequest } from './host-stall-trace.js';
import { TracedRequest, type TracedStall } from './stall-tracer.js';

/**
 * Starts the host's stall trace and waits until its profiler runs (up to a minute): the profiler's start blocks the
 * host's main thread for a while, so a bench that then resets its probe keeps that start out of the stall it reads.
 */
export async function startHostStallTrace(host: Host): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'cd-host-trace-'));
  const startedFile = join(folder, 'started');
  try {
    host.child.send({ stallTrace: 'start', startedFile } satisfies HostStallTraceRequest);
    await waitForFile(startedFile, 'the host did not start its stall trace within 60 s');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function waitForFile(file: string, late: string): Promise<string> {
  for (let waited = 0; ; waited += 100) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) return text;
    if (waited > 60_000) throw new Error(late);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stops the host's stall trace (started with `{ stallTrace: 'start' }`) and reads what it wrote: its turns over
 * `overMs`, and with `withRequests` the IPC calls it took. The host writes its files when it has the trace's samples,
 * which under load takes a while: waited for up to a minute.
 */
export async function stopHostStallTrace(host: Host, overMs: number, withRequests = false): Promise<{ stalls: TracedStall[]; requests: TracedRequest[] }> {
  const folder = await mkdtemp(join(tmpdir(), 'cd-host-stalls-'));
  const file = join(folder, 'stalls.json');
  const requestsFile = withRequests ? join(folder, 'requests.json') : undefined;
  try {
    host.child.send({ stallTrace: 'stop', overMs, file, ...(requestsFile ? { requestsFile } : {}) } satisfies HostStallTraceRequest);
    const text = await waitForFile(file, 'the host wrote no stall trace within 60 s');
    const requests = requestsFile ? z.array(TracedRequest).parse(JSON.parse(await readFile(requestsFile, 'utf8'))) : [];
    return { stalls: JSON.parse(text) as TracedStall[], requests };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
