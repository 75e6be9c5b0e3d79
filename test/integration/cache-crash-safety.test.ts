import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCacheKey } from '../../electron/services/cache/cache-crypto.js';
import { cacheKeyService, PolicyCache } from '../../electron/services/cache/policy-cache.js';
import { CRASH_TEST_ROWS, CRASH_TEST_SHARD_ROWS } from '../support/crash-test-constants.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';

const ITERATIONS = 100;
const owner = { profileId: 'crash', username: 'crash@example.com' };
let work: string;
let childScript: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cd-crash-'));
  childScript = join(work, 'cache-writer-child.mjs');
  // Bundled once so each of the many child starts is a plain, fast `node` start.
  await build({ entryPoints: ['test/support/cache-writer-child.ts'], outfile: childScript, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function runAndKill(dataDir: string, key: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, dataDir, key], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.once('error', reject);
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.once('exit', () => resolve());
  });
}

/** Temp files, and capacity generations beyond the one the manifest names (at most one may exist). */
async function leftovers(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const temps = entries.filter((e) => e.isFile() && e.name.endsWith('.tmp')).map((e) => join(e.parentPath, e.name));
  const generations = entries.filter((e) => e.isDirectory() && /^[0-9a-f]{16}$/.test(e.name));
  return generations.length > 1 ? [...temps, ...generations.map((g) => join(g.parentPath, g.name))] : temps;
}

describe('cache writes are crash-safe', () => {
  it(`leaves a complete previous or new version after ${ITERATIONS} kills at random moments`, async () => {
    const dataDir = join(work, 'data');
    const key = newCacheKey().toString('base64');
    const secrets = new FixedSecretStore({ [FixedSecretStore.key(cacheKeyService(owner.profileId), owner.username)]: key });
    const seenVersions = new Set<string>();
    let killedMidWrite = 0;
    for (let i = 0; i < ITERATIONS; i += 1) {
      await runAndKill(dataDir, key, Math.floor(Math.random() * 60));
      if ((await leftovers(join(dataDir, 'cache'))).length > 0) killedMidWrite += 1;
      const cache = await PolicyCache.open({ dataDir, secrets, owner, shardRows: CRASH_TEST_SHARD_ROWS });
      const entry = await cache.read('capacities');
      expect(cache.discarded, `iteration ${i}: a torn or unreadable file`).toBe(0);
      if (entry) {
        expect(entry.value).toHaveLength(CRASH_TEST_ROWS);
        const versions = new Set(entry.value.map((p) => p.policyName.split(' ')[0]));
        expect(versions.size, `iteration ${i}: items of different versions`).toBe(1);
        seenVersions.add(`${i}:${[...versions][0]}`);
      }
      // Opening removes the temp files and uncommitted generations a killed writer left behind.
      expect(await leftovers(cache.dir)).toEqual([]);
    }
    // The kills must have let writes complete often enough for the check to mean something.
    expect(seenVersions.size).toBeGreaterThan(ITERATIONS / 2);
    // ...and some kills must have landed in the middle of a write, or nothing was proven.
    expect(killedMidWrite).toBeGreaterThan(0);
  }, 120_000);
});
