import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { startStallTrace, type StallTrace, type TracedRequest } from './stall-tracer.js';

/**
 * Loaded into the browser host by a bench (bundled into one plain module and `--import`ed, `hostStallTraceArgs()`), never by
 * the app's own build: the host's main thread traced as stall-tracer.ts traces the bench's own process, so a bench
 * that drives the app through the page (keystroke-refresh, renewal-worklist) can name the host's long turns. The bench
 * asks over the host's IPC channel; the stalls are written to the file it names, not sent back, so no answer of this
 * module can be taken for the bench probe's. `requestsFile` also asks for the page's IPC calls seen meanwhile (when
 * each reached the host and when its answer was written, from Node's own http diagnostics channels), so a wait in the
 * host can be placed between them and the long turns around it.
 */
export const HostStallTraceRequest = z.discriminatedUnion('stallTrace', [
  /** `startedFile`: written once the profiler runs, so the bench can reset its probe after the trace's own start. */
  z.object({ stallTrace: z.literal('start'), startedFile: z.string().optional() }),
  z.object({ stallTrace: z.literal('stop'), overMs: z.number(), file: z.string(), requestsFile: z.string().optional() }),
]);
export type HostStallTraceRequest = z.infer<typeof HostStallTraceRequest>;

/** The trace under way: a promise, so a stop asked before the profiler has started still ends that trace. */
let trace: Promise<StallTrace> | undefined;
/** By request, so an answer's finish finds its entry at once (a walk of the list was a traced cost of its own: 17 ms in a turn). */
let requests = new Map<IncomingMessage, { -readonly [K in keyof TracedRequest]: TracedRequest[K] }>();

const IPC = /^\/ipc\/([^?]+)/;
const onStart = (message: unknown) => {
  const { request } = message as { request: IncomingMessage };
  const channel = IPC.exec(request.url ?? '')?.[1];
  if (channel) requests.set(request, { channel, arrivedAt: Date.now(), finishedAt: null });
};
const onFinish = (message: unknown) => {
  const { request } = message as { request: IncomingMessage };
  const found = requests.get(request);
  if (found) found.finishedAt = Date.now();
};

process.on('message', (message: unknown) => {
  const request = HostStallTraceRequest.safeParse(message);
  if (!request.success) return;
  void (async () => {
    const before = trace;
    const seen = [...requests.values()];
    requests = new Map();
    unsubscribe('http.server.request.start', onStart);
    unsubscribe('http.server.response.finish', onFinish);
    if (request.data.stallTrace === 'start') {
      subscribe('http.server.request.start', onStart);
      subscribe('http.server.response.finish', onFinish);
    }
    trace = request.data.stallTrace === 'start' ? startStallTrace() : undefined;
    const started = trace;
    const stalls = before ? await (await before).stop(request.data.stallTrace === 'stop' ? request.data.overMs : 0) : [];
    if (request.data.stallTrace === 'start') {
      const { startedFile } = request.data;
      if (startedFile && started) await started.then(() => writeWhole(startedFile, 'started'));
      return;
    }
    // Written beside and renamed, so the bench never reads half a file; the requests first, the stalls' file last.
    if (request.data.requestsFile) await writeWhole(request.data.requestsFile, JSON.stringify(seen));
    await writeWhole(request.data.file, JSON.stringify(stalls));
  })();
});

async function writeWhole(file: string, text: string): Promise<void> {
  await writeFile(`${file}.part`, text);
  await rename(`${file}.part`, file);
}
