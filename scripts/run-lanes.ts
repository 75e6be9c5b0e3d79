import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/**
 * Runs independent test lanes side by side and reports each as one line.
 * Interleaved output of parallel tools is unreadable, so each lane's output
 * goes to artifacts/lanes/<name>.log and is printed whole only when the lane
 * fails. Each lane's line gives its wall time and its CPU time (user + system of
 * every process it waited for): the lanes share the cores, so what a lane costs
 * the others is its CPU time, and that is steadier than wall time under load.
 * Exit code: 0 when every lane passed, 1 when any failed, 3 when a check failed and the stage was stopped.
 *
 * `--stop-on a,b`: lanes a and b are checks (lint, types) run beside the tests rather than before them, so the
 * tests do not wait for them; when one of them fails, the lanes still running are ended at once (their whole
 * process groups), as a failed check before the tests would have stopped the run.
 *
 *   tsx scripts/run-lanes.ts <stage> [--stop-on name,name] name=command [name=command ...]
 */
const USAGE = 'usage: tsx scripts/run-lanes.ts <stage> [--stop-on name,name] name=command [name=command ...]';
const [stage, ...args] = process.argv.slice(2);
const stopOn = new Set(args[0] === '--stop-on' ? (args[1] ?? '').split(',').filter(Boolean) : []);
const specs = args[0] === '--stop-on' ? args.slice(2) : args;
const laneName = (spec: string) => spec.slice(0, spec.indexOf('='));
if (!stage || specs.length === 0 || specs.some((s) => !/^[a-z0-9-]+=./.test(s)) || [...stopOn].some((name) => !specs.map(laneName).includes(name))) {
  console.error(USAGE);
  process.exit(2);
}

const dir = join('artifacts', 'lanes');
mkdirSync(dir, { recursive: true });

interface LaneResult {
  readonly name: string;
  readonly code: number;
  readonly seconds: number;
  /** User + system CPU seconds of the lane's whole process tree; null when the lane ended before saying. */
  readonly cpuSeconds: number | null;
  readonly log: string;
  /** Ended by the stage because a check failed beside it, not by its own failure. */
  readonly stopped: boolean;
}

/** bash's `times` second line (its children's user and system time, e.g. "1m2.345s 0m1.000s") in seconds. */
function childrenCpuSeconds(timesOutput: string): number | null {
  const line = timesOutput.trim().split('\n')[1];
  const parts = line?.match(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/);
  if (!parts) return null;
  const [, um, us, sm, ss] = parts.map(Number) as [number, number, number, number, number];
  return um * 60 + us + sm * 60 + ss;
}

function runLane(spec: string): Promise<LaneResult> {
  const at = spec.indexOf('=');
  const name = laneName(spec);
  const command = spec.slice(at + 1);
  const log = join(dir, `${name}.log`);
  const timesFile = join(dir, `${name}.cpu`);
  rmSync(timesFile, { force: true });
  const out = createWriteStream(log);
  const started = Date.now();
  return new Promise((resolve) => {
    // A process group of its own, so a failed stage can end a lane's whole tree. After the command, bash's
    // `times` gives the CPU time of everything it waited for (each process of the tree waits for its own).
    const child = spawn('bash', ['-c', 'eval "$1"; status=$?; times > "$2"; exit $status', 'lane', command, timesFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child.pid ?? 0);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code, signal) => {
      running.delete(child.pid ?? 0);
      let cpuSeconds: number | null = null;
      try {
        cpuSeconds = childrenCpuSeconds(readFileSync(timesFile, 'utf8'));
      } catch {
        // ended by a signal before `times` ran
      }
      const stopped = stoppedBy !== null && code !== 0;
      out.end(() => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, cpuSeconds, log, stopped }));
    });
  });
}

const running = new Set<number>();
/** The check whose failure ended the stage; null while none has. */
let stoppedBy: string | null = null;
const stop = () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
};
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});
process.on('SIGTERM', () => {
  stop();
  process.exit(143);
});

const started = Date.now();
console.log(`=== ${stage}: ${specs.map(laneName).join(', ')} side by side (load ${loadavg()[0]?.toFixed(2)})`);
const results = await Promise.all(
  specs.map(async (spec) => {
    const result = await runLane(spec);
    if (result.code !== 0 && stopOn.has(result.name) && stoppedBy === null) {
      stoppedBy = result.name;
      stop();
    }
    const cpu = result.cpuSeconds === null ? '' : `, CPU ${result.cpuSeconds.toFixed(1)} s`;
    const verdict = result.code === 0 ? 'ok  ' : result.stopped ? 'STOP' : 'FAIL';
    console.log(`${verdict} ${result.name} (${result.seconds.toFixed(1)} s${cpu}, load ${loadavg()[0]?.toFixed(2)})`);
    return result;
  }),
);
const failed = results.filter((r) => r.code !== 0 && !r.stopped);
const stopped = results.filter((r) => r.stopped);
if (stopped.length > 0) console.log(`\n--- ${stoppedBy} failed: ${stopped.map((r) => r.name).join(', ')} ended unfinished`);
for (const result of failed) {
  console.log(`\n--- ${result.name} failed (exit ${result.code}); its output (${result.log}):`);
  process.stdout.write(readFileSync(result.log, 'utf8'));
}
const cpuTotal = results.reduce((sum, r) => sum + (r.cpuSeconds ?? 0), 0);
console.log(
  `=== ${stage}: ${((Date.now() - started) / 1000).toFixed(1)} s, CPU ${cpuTotal.toFixed(1)} s, ${failed.length === 0 ? 'all passed' : `${failed.length} lane(s) failed`}`,
);
process.exit(stoppedBy !== null ? 3 : failed.length === 0 ? 0 : 1);
