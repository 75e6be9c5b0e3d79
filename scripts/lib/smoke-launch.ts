import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMOKE_ENV, SMOKE_RESULT_FILE, SMOKE_TIMEOUT_MS, SmokeResult } from '../../electron/services/desktop/smoke-check.js';

export interface SmokeOutcome {
  readonly passed: boolean;
  /** In plain words: what the app reported, or why it is not a pass. */
  readonly summary: string;
  readonly code: number | null;
  readonly output: string;
  /** Whether Chromium's sandbox was on, as the app reported it (only on a pass). */
  readonly sandboxed?: boolean;
}

/**
 * Launches one packaged app in smoke mode, in a fresh data folder (so no
 * other copy's single-instance lock can make it quit early), and passes only
 * on exit 0 together with the app's own "ok" verdict in that folder.
 */
export async function smokeLaunch(executable: string, args: readonly string[] = [], extraEnv: Readonly<Record<string, string>> = {}): Promise<SmokeOutcome> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-smoke-'));
  try {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    Object.assign(env, extraEnv, { [SMOKE_ENV]: '1', CAPACITY_DESK_DATA_DIR: dataDir, CAPACITY_DESK_DISABLE_UPDATES: '1' });
    const child = spawn(executable, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    // The app has its own limit; this one catches an app that never reached it (hung before main ran).
    const killer = setTimeout(() => child.kill('SIGKILL'), SMOKE_TIMEOUT_MS + 30_000);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode) => resolve(exitCode));
    }).finally(() => clearTimeout(killer));
    const resultFile = join(dataDir, SMOKE_RESULT_FILE);
    const reported = existsSync(resultFile) ? SmokeResult.safeParse(JSON.parse(readFileSync(resultFile, 'utf8'))) : null;
    if (!reported) return { passed: false, code, output, summary: `exit ${code}, and the app wrote no smoke result (it never reached its page)` };
    if (!reported.success) return { passed: false, code, output, summary: `exit ${code}, unreadable smoke result: ${reported.error.message}` };
    const result = reported.data;
    if (!result.ok) return { passed: false, code, output, summary: `exit ${code}: ${result.reason}` };
    if (code !== 0) return { passed: false, code, output, summary: `the app reported ok but exited ${code}` };
    return {
      passed: true,
      code,
      output,
      sandboxed: result.sandboxed,
      summary: `ok: version ${result.version} on ${result.platform}, sandbox ${result.sandboxed ? 'on' : 'OFF'}, keychain: ${result.keychain}`,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
