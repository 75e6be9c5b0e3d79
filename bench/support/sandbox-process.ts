import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { API_PREFIX } from '../../shared/api/contract-choices.js';

export interface SandboxProcess {
  readonly url: string;
  /** Null for a sandbox seeded once outside the bench and reused (BENCH_SANDBOX_URLS): not the bench's to stop. */
  readonly child: ChildProcess | null;
}

/**
 * Sandboxes already seeded and listening, reused instead of seeding one (BENCH_SANDBOX_URLS="1666667=http://...,"
 * by scale, no extra accounts): the 1M seed takes minutes and GBs, so one seed serves every bench of a run. Its data
 * is the same seed's; what earlier benches changed on it (a few policies a refresh) stays, as on a service in use.
 */
function reusedSandbox(scale: number, accounts: number): string | undefined {
  if (accounts !== 0) return undefined;
  for (const entry of (process.env.BENCH_SANDBOX_URLS ?? '').split(',').filter(Boolean)) {
    const [at, url] = entry.split('=');
    if (Number(at) === scale && url) return url;
  }
  return undefined;
}

/**
 * The sandbox in its own process (`npm run sandbox`), as the real service
 * is: the app's work and the service's do not share one event loop. A
 * standalone sandbox asks for no access secret.
 */
export async function startSandboxProcess(scale: number, accounts = 0): Promise<SandboxProcess> {
  const reused = reusedSandbox(scale, accounts);
  if (reused) {
    process.stderr.write(`  sandbox of ${scale.toLocaleString('en-US')} policies: reused at ${reused}, seeded before this bench (BENCH_SANDBOX_URLS) (load ${loadavg()[0]?.toFixed(1)})\n`);
    return { url: reused, child: null };
  }
  // Seeding 1,000,000 policies held 2.9 GB: past a million, room beyond Node's default heap.
  const heap = scale > 1_000_000 ? [`--max-old-space-size=${Math.ceil((scale / 1_000_000) * 4096)}`] : [];
  const child = spawn(process.execPath, [...heap, '--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--scale', String(scale), '--accounts', String(accounts), '--controls', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const match = /Sandbox listening on (http:\/\/\S+)/.exec(line);
    if (match) {
      // How long the seed took and what it holds, beside the figures (the curve's 1M seed takes minutes and GBs).
      process.stderr.write(`  sandbox of ${scale.toLocaleString('en-US')} policies: ${/\(seed .*\)/.exec(line)?.[0] ?? line} (load ${loadavg()[0]?.toFixed(1)})\n`);
      lines.close();
      child.stdout?.resume();
      return { url: match[1] as string, child };
    }
  }
  throw new Error('the sandbox process ended before it listened');
}

export async function stopProcess(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** A round trip added to every capacity call (list pages and details), through the sandbox's latency fault. */
export async function setCapacityLatency(url: string, latencyMs: number): Promise<void> {
  await fetch(`${url}/sandbox/faults`, { method: 'DELETE' });
  if (latencyMs === 0) return;
  const answer = await fetch(`${url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pathPrefix: `${API_PREFIX}/flexcompute/capacities`, latencyMs }),
  });
  if (answer.status !== 201) throw new Error(`could not set the latency fault: ${answer.status}`);
}
