import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCacheKey } from '../../electron/services/cache/cache-crypto.js';
import { cacheKeyService, PolicyCache } from '../../electron/services/cache/policy-cache.js';
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

describe('cache writes are crash-safe', () => {
  it(`leaves a complete previous or new version after ${ITERATIONS} kills at random moments`, async () => {
    const dataDir = join(work, 'data');
    const key = newCacheKey().toString('base64');
    const secrets = new FixedSecretStore({ [FixedSecretStore.key(cacheKeyService(owner.profileId), owner.username)]: key });
    const seenVersions = new Set<string>();
    let killedMidWrite = 0;
    for (let i = 0; i < ITERATIONS; i += 1) {
      await runAndKill(dataDir, key, Math.floor(Math.random() * 60));
      const cacheDirs = await readdir(join(dataDir, 'cache')).catch(() => []);
      for (const dir of cacheDirs) {
        const names = await readdir(join(dataDir, 'cache', dir));
        if (names.some((n) => n.endsWith('.tmp'))) killedMidWrite += 1;
      }
      const cache = await PolicyCache.open({ dataDir, secrets, owner });
      const entry = await cache.read('capacities');
      expect(cache.discarded, `iteration ${i}: a torn or unreadable file`).toBe(0);
      if (entry) {
        expect(entry.value).toHaveLength(1500);
        const versions = new Set(entry.value.map((p) => p.policyName.split(' ')[0]));
        expect(versions.size, `iteration ${i}: items of different versions`).toBe(1);
        seenVersions.add(`${i}:${[...versions][0]}`);
      }
      // Opening removes the temp files a killed writer left behind.
      expect((await readdir(cache.dir).catch(() => [])).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }
    // The kills must have let writes complete often enough for the check to mean something.
    expect(seenVersions.size).toBeGreaterThan(ITERATIONS / 2);
    // ...and some kills must have landed in the middle of a write, or nothing was proven.
    expect(killedMidWrite).toBeGreaterThan(0);
  }, 120_000);
});
