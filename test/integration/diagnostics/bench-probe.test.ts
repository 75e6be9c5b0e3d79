import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { BENCH_PROBE_ENV, BenchProbeReading } from '../../../electron/services/diagnostics/bench-probe.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

async function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork('test/support/bench-probe-child.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env } });
  children.push(child);
  await once(child, 'message');
  return child;
}

function ask(child: ChildProcess, benchProbe: 'reset' | 'read', waitMs = 10_000): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), waitMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send({ benchProbe });
  });
}

describe('the bench probe', () => {
  it('reports the longest event-loop stall and the sync phases since its reset', async () => {
    const child = await startChild({ [BENCH_PROBE_ENV]: '1' });
    await ask(child, 'reset');
    child.send({ stall: 300 });
    await once(child, 'message');
    // The delay monitor records a stall on its next tick after the loop is free again, which a loaded machine may
    // schedule after the read: ask until it is seen (a probe that never sees it still fails).
    await expect.poll(async () => BenchProbeReading.parse(await ask(child, 'read')).maxStallMs, { timeout: 10_000 }).toBeGreaterThanOrEqual(250);
    const reading = BenchProbeReading.parse(await ask(child, 'read'));
    expect(reading.phases).toEqual([expect.objectContaining({ phase: 'capacities', lastFetched: 7 })]);
    const afterReset = BenchProbeReading.parse(await ask(child, 'reset'));
    expect(afterReset.phases).toEqual([]);
    expect(afterReset.maxStallMs).toBeLessThan(250);
  }, 30_000);

  it('is off without its environment variable: nothing answers', async () => {
    const child = await startChild({ [BENCH_PROBE_ENV]: '' });
    expect(await ask(child, 'read')).toBeNull();
  }, 30_000);
});
