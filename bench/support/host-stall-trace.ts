import { rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { startStallTrace, type StallTrace } from './stall-tracer.js';

/**
 * Loaded into the browser host by a bench (`--import tsx --import <this file>`, HOST_STALL_TRACE_ARGS), never by
 * the app's own build: the host's main thread traced as stall-tracer.ts traces the bench's own process, so a bench
 * that drives the app through the page (keystroke-refresh) can name the host's long turns. The bench asks over the
 * host's IPC channel; the stalls are written to the file it names, not sent back, so no answer of this module can be
 * taken for the bench probe's.
 */
export const HostStallTraceRequest = z.discriminatedUnion('stallTrace', [
  z.object({ stallTrace: z.literal('start') }),
  z.object({ stallTrace: z.literal('stop'), overMs: z.number(), file: z.string() }),
]);
export type HostStallTraceRequest = z.infer<typeof HostStallTraceRequest>;

/** The trace under way: a promise, so a stop asked before the profiler has started still ends that trace. */
let trace: Promise<StallTrace> | undefined;

process.on('message', (message: unknown) => {
  const request = HostStallTraceRequest.safeParse(message);
  if (!request.success) return;
  void (async () => {
    const before = trace;
    trace = request.data.stallTrace === 'start' ? startStallTrace() : undefined;
    const stalls = before ? await (await before).stop(request.data.stallTrace === 'stop' ? request.data.overMs : 0) : [];
    if (request.data.stallTrace === 'start') return;
    // Written beside and renamed, so the bench never reads half a file.
    await writeFile(`${request.data.file}.part`, JSON.stringify(stalls));
    await rename(`${request.data.file}.part`, request.data.file);
  })();
});
