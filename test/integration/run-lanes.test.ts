import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The lanes of `npm test` (scripts/run-lanes.ts). The checks (lint, types) run beside the tests with
 * `--stop-on`: a failed check must end the tests still running, as a failed check before them stopped the
 * run, and leave no process of theirs behind. Run in a folder of its own: the lanes' logs go to its artifacts/.
 */
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const dir = mkdtempSync(join(tmpdir(), 'run-lanes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runLanes(...args: string[]): Promise<{ out: string; code: number }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', TSX, join(ROOT, 'scripts', 'run-lanes.ts'), 'stage', ...args], { cwd: dir }, (error, stdout) =>
      done({ out: stdout, code: error ? Number((error as { code?: number }).code) : 0 }),
    );
  });
}

/** Whether a process of that id is still running (a zombie, ended and waiting for whoever reaps orphans, is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe('run-lanes', () => {
  it('ends the lanes still running when a check named by --stop-on fails, with their whole process tree', async () => {
    const started = join(dir, 'long-started');
    const pidFile = join(dir, 'long-child.pid');
    // The long lane would run for ten minutes: its child (a process of its tree, not the lane's shell) says its id.
    const long = `long=sleep 600 & echo $! > ${pidFile}; touch ${started}; wait`;
    // The check fails once the long lane is under way, so the stop finds it running.
    const check = `check=until [ -e ${started} ]; do sleep 0.05; done; echo 'lint: 1 problem'; exit 1`;
    const { out, code } = await runLanes('--stop-on', 'check', check, long);

    expect(code).toBe(3);
    expect(out).toMatch(/^FAIL check /m);
    expect(out).toMatch(/^STOP long /m);
    expect(out).toContain('check failed: long ended unfinished');
    // The failed check's own output is printed; the stopped lane's is not (it says nothing of the tests).
    expect(out).toContain('lint: 1 problem');
    const child = Number(readFileSync(pidFile, 'utf8'));
    // The signal and its delivery under load (CI at load 12 passed poll's default second).
    await expect.poll(() => alive(child), { timeout: 15_000 }).toBe(false);
  });

  it('lets the other lanes finish when a lane that is not a check fails, and says which failed', async () => {
    const failed = join(dir, 'tests-failed');
    const { out, code } = await runLanes(
      '--stop-on',
      'check',
      'check=true',
      `tests=touch ${failed}; echo '1 failed'; exit 1`,
      // Still running after the failing lane has ended.
      `other=until [ -e ${failed} ]; do sleep 0.05; done; sleep 0.5`,
    );
    expect(code).toBe(1);
    expect(out).toMatch(/^ok {3}check /m);
    expect(out).toMatch(/^FAIL tests /m);
    expect(out).toMatch(/^ok {3}other /m);
    expect(out).toContain('1 lane(s) failed');
    expect(existsSync(join(dir, 'artifacts', 'lanes', 'other.log'))).toBe(true);
  });

  it('refuses a --stop-on naming no lane of the stage', async () => {
    const { code } = await runLanes('--stop-on', 'lint', 'check=true');
    expect(code).toBe(2);
  });
});
