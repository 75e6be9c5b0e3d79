import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oncePerRun } from '../support/once-per-run.js';

/** The run's folder, as npm test makes it for the packaging files' shared pack (test/packaging/support/pack.ts). */
let runDir: string;
beforeEach(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'capacity-desk-once-'));
});
afterEach(async () => {
  await rm(runDir, { recursive: true, force: true });
});

describe('oncePerRun', () => {
  it('makes a thing once for callers that ask at the same time; the others read the answer the maker wrote', async () => {
    const made: string[] = [];
    const make = async (dir: string) => {
      made.push(dir);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { appOutDir: join(dir, 'out'), files: ['/dist/electron/main.mjs'] };
    };
    const dir = join(runDir, 'release');
    const answers = await Promise.all([oncePerRun(dir, make, { pollMs: 10 }), oncePerRun(dir, make, { pollMs: 10 }), oncePerRun(dir, make, { pollMs: 10 })]);
    expect(made).toEqual([dir]);
    expect(answers).toEqual([answers[0], answers[0], answers[0]]);
    expect(answers[0]).toEqual({ appOutDir: join(dir, 'out'), files: ['/dist/electron/main.mjs'] });
    // A caller that comes after it was made reads it too, without making it again.
    expect(await oncePerRun(dir, make, { pollMs: 10 })).toEqual(answers[0]);
    expect(made).toHaveLength(1);
  });

  it('gives each name its own make', async () => {
    let makes = 0;
    const make = async () => ++makes;
    expect(await oncePerRun(join(runDir, 'release'), make)).toBe(1);
    expect(await oncePerRun(join(runDir, 'test-build'), make)).toBe(2);
  });

  it('fails the waiters with the maker’s reason, without waiting out their time', async () => {
    const dir = join(runDir, 'release');
    const failing = oncePerRun(dir, async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('electron-builder exited 1');
    });
    const waiting = oncePerRun(dir, async () => 'never made here', { pollMs: 10, timeoutMs: 60_000 });
    const started = Date.now();
    await expect(failing).rejects.toThrow('electron-builder exited 1');
    await expect(waiting).rejects.toThrow(/another process of this run, which failed: .*electron-builder exited 1/s);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('a waiter whose maker never answers gives up after its time, saying so', async () => {
    const dir = join(runDir, 'release');
    void oncePerRun(dir, () => new Promise<never>(() => {}));
    await expect(oncePerRun(dir, async () => 'never made here', { pollMs: 10, timeoutMs: 100 })).rejects.toThrow(/never made \(waited 100 ms\)/);
    expect(await readdir(dir)).toEqual([]);
  });
});
