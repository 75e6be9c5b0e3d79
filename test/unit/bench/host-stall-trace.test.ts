import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostStallTraceArgs } from '../../../bench/support/app-page.js';

/**
 * The host's stall tracer must leave the host as `npm start` runs it. Loaded through tsx it turned Node's source
 * maps on (and tsx compiled host.mjs again with a map of its own), so a logged error's stack was mapped on the main
 * thread: a 4,256 ms turn of the traced 1M first sync (branch curve17) that the app without the tracer never has.
 */
const PROBE = `
import { findSourceMap } from 'node:module';
process.on('message', (message) => {
  if (message !== 'report') return;
  const stack = new Error('probe').stack ?? '';
  process.send({ sourceMapsEnabled: process.sourceMapsEnabled, ownMap: findSourceMap(process.argv[1]) !== undefined, stackLines: stack.split('\\n').length });
});
setInterval(() => undefined, 1_000);
process.send('ready');
`;
const Report = z.object({ sourceMapsEnabled: z.boolean(), ownMap: z.boolean(), stackLines: z.number() });

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the host stall tracer (bench/support/host-stall-trace.ts)', () => {
  it('loads without turning source maps on, and still writes its stalls when asked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-tracer-test-'));
    dirs.push(dir);
    const probe = join(dir, 'probe.mjs');
    await writeFile(probe, PROBE);
    const child = spawn(process.execPath, [...hostStallTraceArgs(), probe], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      // Asked once the probe listens: a message that comes before its listener is not its.
      await once(child, 'message');
      child.send({ stallTrace: 'start' });
      child.send('report');
      const [message] = (await once(child, 'message')) as [unknown];
      const report = Report.parse(message);
      expect(report.sourceMapsEnabled).toBe(false);
      expect(report.ownMap).toBe(false);
      expect(report.stackLines).toBeGreaterThan(1);

      // The tracer answers as the benches ask it: a stop writes the stalls' file (a list, maybe empty).
      const file = join(dir, 'stalls.json');
      child.send({ stallTrace: 'stop', overMs: 200, file });
      for (let waited = 0; ; waited += 50) {
        const text = await readFile(file, 'utf8').catch(() => null);
        if (text !== null) {
          expect(Array.isArray(JSON.parse(text))).toBe(true);
          break;
        }
        if (waited > 60_000) throw new Error('the tracer wrote no stalls file');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      child.kill();
    }
  }, 90_000);
});
