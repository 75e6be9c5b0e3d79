import { readFile } from 'node:fs/promises';
import { traceEvents, type TraceEvent } from '../test/support/chromium-trace.js';

/**
 * The page's main thread in a Chromium trace (bench/keystroke-ab.ts with KEY_AB_TRACE_DIR), its top-level tasks
 * sorted by what they ran: a key's input, a frame, an idle callback, a timer, the rest (an answer's response and
 * its promise callbacks, mostly). Each kind's count, wall time and thread CPU time (`tdur`: what the task took of a
 * core, not the wait for one, so it can be read on a loaded machine), per key when a key count is given.
 * When the trace holds the bench's `bench-start` marks (the keys within "No customer", timed by changeToPaint), also
 * each key's window: from its mark to the end of the first frame's commit after its list answer was received, and
 * the tasks that ran inside it by kind: what a key's wait holds, apart from the work between keys.
 * `npx tsx bench/trace-tasks.ts <trace.json> [keys]` (issues 25/26, branch keys13); TRACE_TIMELINE=1 lays the slowest keys out
 * in time (keys16), TRACE_PARTS=1 cuts each key's wait into its parts, replacing keys apart from narrowing ones (keys17).
 */

const [file, keysArg] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/trace-tasks.ts <trace.json> [keys]');
const events = traceEvents(await readFile(file, 'utf8'));

// The page's main thread: the renderer main thread with the most events (other tabs' are idle).
const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const counts = new Map<string, number>();
for (const e of events) {
  const key = `${e.pid}:${e.tid}`;
  if (mains.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
}
const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
if (!main) throw new Error('no renderer main thread in the trace');
const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X').sort((a, b) => a.ts - b.ts);

type Kind = 'input' | 'frame' | 'idle callback' | 'timer' | 'other (answers)';
function kindOf(inside: readonly TraceEvent[]): Kind {
  if (inside.some((e) => e.name === 'EventDispatch' && ['keydown', 'keypress', 'input', 'keyup', 'change'].includes(e.args?.data?.type ?? ''))) return 'input';
  if (inside.some((e) => e.name === 'FireIdleCallback')) return 'idle callback';
  if (inside.some((e) => ['BeginMainThreadFrame', 'Paint', 'PrePaint', 'Layerize', 'FireAnimationFrame', 'UpdateLayoutTree'].includes(e.name) && inside.some((f) => f.name === 'Commit' || f.name === 'Paint' || f.name === 'PrePaint'))) return 'frame';
  if (inside.some((e) => e.name === 'TimerFire')) return 'timer';
  return 'other (answers)';
}

interface Task {
  readonly ts: number;
  readonly kind: Kind;
  readonly wall: number;
  readonly cpu: number;
}
const tasks: Task[] = [];
let at = 0;
while (at < onMain.length) {
  const task = onMain[at] as TraceEvent;
  if (task.name !== 'RunTask' && task.name !== 'ThreadControllerImpl::RunTask') {
    at += 1;
    continue;
  }
  const end = task.ts + (task.dur ?? 0);
  const inside: TraceEvent[] = [];
  let next = at + 1;
  while (next < onMain.length && (onMain[next] as TraceEvent).ts < end) inside.push(onMain[next++] as TraceEvent);
  tasks.push({ ts: task.ts, kind: kindOf(inside), wall: (task.dur ?? 0) / 1000, cpu: (task.tdur ?? task.dur ?? 0) / 1000 });
  at = next;
}

function sumByKind(of: readonly Task[]): Map<Kind, { tasks: number; wall: number; cpu: number; long: number }> {
  const totals = new Map<Kind, { tasks: number; wall: number; cpu: number; long: number }>();
  for (const task of of) {
    const sum = totals.get(task.kind) ?? { tasks: 0, wall: 0, cpu: 0, long: 0 };
    sum.tasks += 1;
    sum.wall += task.wall;
    sum.cpu += task.cpu;
    sum.long = Math.max(sum.long, task.cpu);
    totals.set(task.kind, sum);
  }
  return totals;
}

// Each key's window (a task that overlaps it counts: the key's own input task holds its mark): its mark to the end of the first commit after its last list answer was received.
// The keys within "No customer" carry the bench's `bench-start` marks; the plain search's keys (typed through Chromium's
// key events, no mark) start at their keydown's dispatch (keys14). A keydown with no input (Ctrl+A) finds no answer sent after it before the next and has no window.
const benchMarks = events.filter((e) => `${e.pid}:${e.tid}` === main && e.name === 'bench-start').map((e) => e.ts);
const keydowns = events.filter((e) => `${e.pid}:${e.tid}` === main && e.name === 'EventDispatch' && e.args?.data?.type === 'keydown').map((e) => e.ts);
const marks = (benchMarks.length > 0 ? benchMarks : keydowns).sort((a, b) => a - b);
const received = new Map<string, { sent: number; url: string; received?: number }>();
for (const e of events) {
  const id = e.args?.data?.requestId;
  if (!id) continue;
  if (e.name === 'ResourceSendRequest') received.set(id, { sent: e.ts, url: e.args?.data?.url ?? '' });
  else if (e.name === 'ResourceFinish') {
    const request = received.get(id);
    if (request) request.received = e.ts;
  }
}
// TRACE_CHANNEL: the answers a window waits for (the keys' `capacity.list` by default; `worklist.query` for the
// Renewals' first click, bench/renewal-worklist.bench.ts WORKLIST_PAGE_TRACE).
const CHANNEL = process.env.TRACE_CHANNEL ?? 'capacity.list';
const lists = [...received.values()].filter((r) => r.url.endsWith(`/${CHANNEL}`) && r.received !== undefined);
const commits = onMain.filter((e) => e.name === 'Commit').map((e) => e.ts + (e.dur ?? 0));
const windows: Array<[number, number]> = [];
for (const [i, mark] of marks.entries()) {
  const before = marks[i + 1] ?? Number.POSITIVE_INFINITY;
  const answered = lists.filter((r) => r.sent >= mark && r.sent < before).at(-1)?.received;
  const painted = answered === undefined ? undefined : commits.find((commit) => commit > answered);
  if (painted !== undefined) windows.push([mark, painted]);
}

const keys = Number(keysArg ?? 0);
function print(title: string, of: readonly Task[], perKey: number): void {
  const per = (ms: number) => (perKey > 0 ? ` (${(ms / perKey).toFixed(2)} ms a key)` : '');
  let cpu = 0;
  process.stdout.write(`${title}\n`);
  for (const [kind, sum] of [...sumByKind(of)].sort((a, b) => b[1].cpu - a[1].cpu)) {
    cpu += sum.cpu;
    process.stdout.write(`  ${kind}: ${sum.tasks} tasks, wall ${sum.wall.toFixed(1)} ms, CPU ${sum.cpu.toFixed(1)} ms${per(sum.cpu)}, longest CPU ${sum.long.toFixed(1)} ms\n`);
  }
  process.stdout.write(`  all: CPU ${cpu.toFixed(1)} ms${per(cpu)}\n`);
}
print('every task of the page\'s main thread', tasks, keys);
if (windows.length > 0) {
  const inside = tasks.filter((task) => windows.some(([from, to]) => task.ts < to && task.ts + task.wall * 1000 > from));
  const waits = windows.map(([from, to]) => (to - from) / 1000).sort((a, b) => a - b);
  print(`inside the ${windows.length} keys' windows (mark to the answer's frame committed; median ${waits[Math.floor(waits.length / 2)]?.toFixed(1)} ms)`, inside, windows.length);
  // What the tasks inside the windows ran, by trace event (thread CPU, self time: an event's children taken out), the
  // largest first: which of Chromium's steps (style, layout, paint, commit...) and the page's scripts a key waits for.
  const selfByName = new Map<string, number>();
  const insideEvents = onMain.filter((e) => inside.some((task) => e.ts >= task.ts && e.ts < task.ts + task.wall * 1000));
  // Each event's task kind, so the self times are told by the task they ran in (an input's Layout from a frame's).
  const kindAt = (ts: number): Kind | undefined => inside.find((task) => ts >= task.ts && ts < task.ts + task.wall * 1000)?.kind;
  for (const [i, e] of insideEvents.entries()) {
    const end = e.ts + (e.dur ?? 0);
    let children = 0;
    for (let j = i + 1; j < insideEvents.length && (insideEvents[j] as TraceEvent).ts < end; j += 1) {
      const child = insideEvents[j] as TraceEvent;
      // Direct children only: a child's own children are inside it.
      const parentEnd = child.ts + (child.dur ?? 0);
      children += (child.tdur ?? child.dur ?? 0) / 1000;
      while (j + 1 < insideEvents.length && (insideEvents[j + 1] as TraceEvent).ts < parentEnd) j += 1;
    }
    const self = (e.tdur ?? e.dur ?? 0) / 1000 - children;
    const name = `${kindAt(e.ts) ?? '?'} / ${e.name}`;
    selfByName.set(name, (selfByName.get(name) ?? 0) + self);
  }
  process.stdout.write(`  by trace event inside the windows (self CPU, ms a key):\n`);
  for (const [name, ms] of [...selfByName].sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`    ${name}: ${(ms / windows.length).toFixed(2)}\n`);
  const lasts = [...windows].map(([from, to], index) => ({ index, from, to, wait: (to - from) / 1000 })).sort((a, b) => b.wait - a.wait).slice(0, 5);
  for (const { index, from, to, wait } of lasts) {
    const sent = lists.filter((r) => r.sent >= from && r.sent < to);
    const trip = sent.map((r) => ((r.received as number) - r.sent) / 1000);
    const busy = tasks.filter((task) => task.ts < to && task.ts + task.wall * 1000 > from).reduce((sum, task) => sum + task.cpu, 0);
    process.stdout.write(`  slow key (window ${index + 1} of ${windows.length}): ${wait.toFixed(1)} ms, list round trips ${trip.map((t) => t.toFixed(1)).join(' + ')} ms, page CPU ${busy.toFixed(1)} ms\n`);
    // TRACE_TIMELINE=1 (keys16): the slow key laid out in time, by wall: each main-thread task inside its window
    // (start from the key's mark, wall, CPU, kind, its three largest events by self wall) and the list requests'
    // send and receive, so a p95 key's wait is read as what it waited for, not as sums.
    if (process.env.TRACE_TIMELINE !== '1') continue;
    const rel = (ts: number) => ((ts - from) / 1000).toFixed(1);
    for (const r of sent) process.stdout.write(`    ${CHANNEL} sent at ${rel(r.sent)}, received at ${rel(r.received as number)}\n`);
    for (const task of tasks.filter((t) => t.ts < to && t.ts + t.wall * 1000 > from)) {
      const end = task.ts + task.wall * 1000;
      const own = onMain.filter((e) => e.ts >= task.ts && e.ts < end && e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
      // Self wall by a stack walk: an event's direct children taken out (events sorted by start, nested by time).
      const self = new Map<TraceEvent, number>();
      const open: TraceEvent[] = [];
      for (const e of own) {
        while (open.length > 0 && (open.at(-1) as TraceEvent).ts + ((open.at(-1) as TraceEvent).dur ?? 0) <= e.ts) open.pop();
        const parent = open.at(-1);
        if (parent) self.set(parent, (self.get(parent) ?? 0) - (e.dur ?? 0) / 1000);
        self.set(e, (self.get(e) ?? 0) + (e.dur ?? 0) / 1000);
        open.push(e);
      }
      const byName = new Map<string, number>();
      for (const [e, ms] of self) byName.set(e.name, (byName.get(e.name) ?? 0) + ms);
      const top = [...byName]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
        .join(', ');
      process.stdout.write(`    ${rel(task.ts)}: ${task.kind}, wall ${task.wall.toFixed(1)}, CPU ${task.cpu.toFixed(1)} ms [${top}]\n`);
    }
  }
}

// TRACE_PARTS=1 (keys17): each key's window cut into its parts by wall time, medians over the keys that replace the rows
// on screen (the answer's frame lays out more than REPLACING_OBJECTS objects) and over those that narrow them, then the
// slowest keys' own parts: the key's input task, its request's round trip, the answer's tasks up to the frame, the wait
// for the frame to begin (a frame starts at the display's next tick; small tasks before it counted in this wait), and the
// frame itself to its commit.
const REPLACING_OBJECTS = 100;
if (process.env.TRACE_PARTS === '1' && windows.length > 0) {
  interface Parts {
    readonly wait: number;
    readonly input: number;
    readonly toSend: number;
    readonly trip: number;
    readonly answer: number;
    readonly toFrame: number;
    readonly frame: number;
    readonly replacing: boolean;
  }
  const parts: Parts[] = [];
  for (const [from, to] of windows) {
    const request = lists.filter((r) => r.sent >= from && r.sent < to).at(-1);
    const received = request?.received;
    if (!request || received === undefined) continue;
    const own = tasks.find((task) => task.ts <= from && task.ts + task.wall * 1000 >= from) ?? tasks.find((task) => task.ts >= from);
    const frame = tasks.find((task) => task.kind === 'frame' && task.ts >= received && task.ts < to);
    if (!own || !frame) continue;
    // The answer's work: its tasks that ran script or layout (the small tasks just before a frame are the frame's own start).
    const answered = tasks.filter((task) => task.kind !== 'frame' && task.cpu >= 0.2 && task.ts >= received && task.ts < frame.ts).reduce((end, task) => Math.max(end, task.ts + task.wall * 1000), received);
    const laidOut = onMain.filter((e) => e.name === 'Layout' && e.ts >= frame.ts && e.ts < frame.ts + frame.wall * 1000).reduce((sum, e) => sum + (e.args?.beginData?.dirtyObjects ?? 0), 0);
    parts.push({
      wait: (to - from) / 1000,
      input: (own.ts + own.wall * 1000 - from) / 1000,
      toSend: (request.sent - from) / 1000,
      trip: (received - request.sent) / 1000,
      answer: (answered - received) / 1000,
      toFrame: (frame.ts - answered) / 1000,
      frame: (to - frame.ts) / 1000,
      replacing: laidOut > REPLACING_OBJECTS,
    });
  }
  const mid = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  const line = (label: string, of: readonly Parts[]) =>
    `  ${label}: ${of.length} keys; wait ${mid(of.map((p) => p.wait)).toFixed(1)}; input task ${mid(of.map((p) => p.input)).toFixed(1)}, to the request sent ${mid(of.map((p) => p.toSend)).toFixed(1)}, round trip ${mid(of.map((p) => p.trip)).toFixed(1)}, the answer's tasks ${mid(of.map((p) => p.answer)).toFixed(1)}, to the frame's start ${mid(of.map((p) => p.toFrame)).toFixed(1)}, the frame ${mid(of.map((p) => p.frame)).toFixed(1)} ms\n`;
  process.stdout.write(`the keys' windows by part (wall, medians):\n`);
  process.stdout.write(line('replacing the rows', parts.filter((p) => p.replacing)));
  process.stdout.write(line('narrowing them', parts.filter((p) => !p.replacing)));
  for (const p of [...parts].sort((a, b) => b.wait - a.wait).slice(0, 5)) process.stdout.write(line(`a slow key (${p.replacing ? 'replacing' : 'narrowing'})`, [p]));
}
