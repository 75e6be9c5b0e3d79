import { z } from 'zod';

/**
 * A Chromium performance trace's events, the fields the tests and bench/trace-tasks read (the rest kept as they come).
 * A trace is Chromium's JSON, not ours: read through one schema, in either of its two forms (an object holding
 * `traceEvents`, or the bare array).
 */
export const TraceEvent = z.looseObject({
  name: z.string(),
  ph: z.string(),
  pid: z.number(),
  tid: z.number(),
  ts: z.number(),
  dur: z.number().optional(),
  tdur: z.number().optional(),
  args: z
    .looseObject({
      name: z.string().optional(),
      data: z.looseObject({ type: z.string().optional(), requestId: z.string().optional(), url: z.string().optional() }).optional(),
      // A layout's start: its script stack (with the disabled-by-default-devtools.timeline.stack category: who forced
      // it) and how many layout objects were dirty (bench/trace-tasks' TRACE_PARTS tells a key that replaces the rows).
      beginData: z
        .looseObject({
          stackTrace: z.array(z.looseObject({ functionName: z.string(), url: z.string(), lineNumber: z.number(), columnNumber: z.number() })).optional(),
          dirtyObjects: z.number().optional(),
        })
        .optional(),
    })
    .optional(),
});
export type TraceEvent = z.infer<typeof TraceEvent>;

const Trace = z.union([z.array(TraceEvent), z.looseObject({ traceEvents: z.array(TraceEvent).default([]) })]);

/** The events of a trace's JSON text. */
export function traceEvents(text: string): TraceEvent[] {
  const trace = Trace.parse(JSON.parse(text));
  return Array.isArray(trace) ? trace : trace.traceEvents;
}
