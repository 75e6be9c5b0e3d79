import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/**
 * Runs independent test lanes side by side and reports each as one line.
 * Interleaved output of parallel tools is unreadable, so each lane's output
 * goes to artifacts/lanes/<name>.log and is printed whole only when the lane
 * fails. Exit code: non-zero when any lane failed.
 *
 *   tsx scripts/run-lanes.ts <stage> name=command [name=command ...]
 */
const [stage, ...specs] = process.argv.slice(2);
if (!stage || specs.length === 0 || specs.some((s) => !/^[a-z0-9-]+=./.test(s))) {
  console.error('usage: tsx scripts/run-lanes.ts <stage> name=command [name=command ...]');
  process.exit(2);
}

const dir = join('artifacts', 'lanes');
mkdirSync(dir, { recursive: true });

interface LaneResult {
  readonly name: string;
  readonly code: number;
  readonly seconds: number;
  readonly log: string;
}

function runLane(spec: string): Promise<LaneResult> {
  const at = spec.indexOf('=');
  const name = spec.slice(0, at);
  const command = spec.slice(at + 1);
  const log = join(dir, `${name}.log`);
  const out = createWriteStream(log);
  const started = Date.now();
  return new Promise((resolve) => {
    // A process group of its own, so a failed stage can end a lane's whole tree.
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child.pid ?? 0);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code, signal) => {
      running.delete(child.pid ?? 0);
      out.end(() => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, log }));
    });
  });
}

const running = new Set<number>();
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
console.log(`=== ${stage}: ${specs.map((s) => s.slice(0, s.indexOf('='))).join(', ')} side by side (load ${loadavg()[0]?.toFixed(2)})`);
const results = await Promise.all(
  specs.map(async (spec) => {
    const result = await runLane(spec);
    console.log(`${result.code === 0 ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds.toFixed(1)} s)`);
    return result;
  }),
);
const failed = results.filter((r) => r.code !== 0);
for (const result of failed) {
  console.log(`\n--- ${result.name} failed (exit ${result.code}); its output (${result.log}):`);
  process.stdout.write(readFileSync(result.log, 'utf8'));
}
console.log(`=== ${stage}: ${((Date.now() - started) / 1000).toFixed(1)} s, ${failed.length === 0 ? 'all passed' : `${failed.length} lane(s) failed`}`);
process.exit(failed.length === 0 ? 0 : 1);
