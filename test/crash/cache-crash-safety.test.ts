import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { replicaKeyService, Replica } from '../../electron/services/replica/replica.js';
import { DATABASE_KEY_BYTES } from '../../electron/services/secrets/database-key.js';
import { CRASH_TEST_ROWS } from '../support/crash-test-constants.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { capacityWindow, readKind } from '../../electron/services/replica/replica-reads.js';

const ITERATIONS = 40;
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
    // The bundle lives in a temp folder; the database module (native, loaded by name) is found through NODE_PATH.
    const env = { ...process.env, NODE_PATH: join(process.cwd(), 'node_modules') };
    const child = spawn(process.execPath, [childScript, dataDir, key], { stdio: ['ignore', 'pipe', 'inherit'], env });
    child.once('error', reject);
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.once('exit', () => resolve());
  });
}

/**
 * How long one whole write takes here and now (from "ready" to the first
 * "wrote"): the kills then land at random within two and a half writes, so on a
 * quiet or a loaded machine some land mid-write and some after a write.
 */
function timeOneWrite(dataDir: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NODE_PATH: join(process.cwd(), 'node_modules') };
    const child = spawn(process.execPath, [childScript, dataDir, key], { stdio: ['ignore', 'pipe', 'inherit'], env });
    child.once('error', reject);
    let readyAt = 0;
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (!readyAt && text.includes('ready')) readyAt = Date.now();
      if (readyAt && text.includes('wrote')) {
        const took = Date.now() - readyAt;
        child.once('exit', () => resolve(took));
        child.kill('SIGKILL');
      }
    });
  });
}

/** Files of an owner's folder that are not the replica, its journal, or the plain facts beside it. */
async function strayFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return names.filter((name) => !['replica.db', 'replica.db-wal', 'replica.db-shm', 'copy-facts.json'].includes(name));
}

/**
 * A refresh is committed and then checkpointed (the journal emptied): a
 * journal with frames in it after a kill means the kill landed in a write.
 */
async function journalBytes(dataDir: string): Promise<number> {
  const owners = await readdir(join(dataDir, 'cache')).catch(() => []);
  const sizes = await Promise.all(owners.map((o) => stat(join(dataDir, 'cache', o, 'replica.db-wal')).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

describe('cache writes are crash-safe', () => {
  it(`leaves a complete previous or new version after ${ITERATIONS} kills at random moments`, async () => {
    const dataDir = join(work, 'data');
    const key = randomBytes(DATABASE_KEY_BYTES).toString('base64');
    const secrets = new FixedSecretStore({ [FixedSecretStore.key(replicaKeyService(owner.profileId), owner.username)]: key });
    const seenVersions = new Set<string>();
    let killedMidWrite = 0;
    const writeMs = await timeOneWrite(dataDir, key);
    for (let i = 0; i < ITERATIONS; i += 1) {
      await runAndKill(dataDir, key, Math.floor(Math.random() * writeMs * 2.5));
      if ((await journalBytes(dataDir)) > 0) killedMidWrite += 1;
      const cache = await Replica.open({ dataDir, secrets, owner, verifyDelayMs: 0 });
      const entry = await readKind(cache, 'capacities');
      // Every page of the file is read and authenticated: a torn page would show here.
      await cache.verified();
      expect(cache.discarded, `iteration ${i}: a torn or unreadable file`).toBe(0);
      if (entry) {
        expect(entry.value).toHaveLength(CRASH_TEST_ROWS);
        const versions = new Set(entry.value.map((p) => p.policyName?.split(' ')[0]));
        expect(versions.size, `iteration ${i}: items of different versions`).toBe(1);
        seenVersions.add(`${i}:${[...versions][0]}`);
      }
      // The search index agrees with the rows: no half-indexed refresh either.
      if (entry) expect((await capacityWindow(cache, { text: 'reservation', status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 1 }))?.total).toBe(CRASH_TEST_ROWS);
      expect(await strayFiles(cache.dir)).toEqual([]);
      await cache.close();
    }
    // The kills must have let writes complete often enough for the check to mean something.
    expect(seenVersions.size).toBeGreaterThan(ITERATIONS / 2);
    // ...and some kills must have landed in the middle of a write, or nothing was proven.
    expect(killedMidWrite).toBeGreaterThan(0);
  // Forty starts, kills and full reads: about a minute on a quiet machine, several when the browser suite runs beside.
  }, 600_000);
});
