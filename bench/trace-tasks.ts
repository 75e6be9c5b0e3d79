import { readFile } from 'node:fs/promises';

/**
 * The page's main thread in a Chromium trace (bench/keystroke-ab.ts with KEY_AB_TRACE_DIR), its top-level tasks
 * sorted by what they ran: a key's input, a frame, an idle callback, a timer, the rest (an answer's response and
 * its promise callbacks, mostly). Each kind's count, wall time and thread CPU time (`tdur`: what the task took of a
 * core, not the wait for one, so it can be read on a loaded machine), per key when a key count is given.
 * When the trace holds the bench's `bench-start` marks (the keys within "No customer", timed by changeToPaint), also
 * each key's window: from its mark to the end of the first frame's commit after its list answer was received, and
 * the tasks that ran inside it by kind: what a key's wait holds, apart from the work between keys.
 * `npx tsx bench/trace-tasks.ts <trace.json> [keys]` (issues 25/26, branch keys13).
 */
interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string; readonly data?: { readonly type?: string; readonly requestId?: string; readonly url?: string } };
}

const [file, keysArg] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/trace-tasks.ts <trace.json> [keys]');
const parsed = JSON.parse(await readFile(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);

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
const marks = events.filter((e) => `${e.pid}:${e.tid}` === main && e.name === 'bench-start').map((e) => e.ts).sort((a, b) => a - b);
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
const lists = [...received.values()].filter((r) => r.url.endsWith('/capacity.list') && r.received !== undefined);
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
}
