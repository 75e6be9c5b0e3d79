import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFreshDist } from '../support/fresh-dist.js';

/** A project tree with every source and build input the check reads, all written at `at`. */
async function project(root: string, at: Date): Promise<void> {
  const files = [
    'renderer/main.ts',
    'shared/a.ts',
    'electron/b.ts',
    'sandbox/c.ts',
    'vite.config.ts',
    'svelte.config.js',
    'scripts/build-node.ts',
    'dist/renderer/index.html',
    'dist/host/host.mjs',
    'dist/host/api-shim.js',
  ];
  for (const file of files) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), '');
    await utimes(join(root, file), at, at);
  }
}

describe('the check for a stale dist/ before the UI suites', () => {
  let root: string;
  const built = new Date('2026-01-02T00:00:00Z');
  const before = new Date('2026-01-01T00:00:00Z');
  const after = new Date('2026-01-03T00:00:00Z');
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cd-fresh-dist-'));
    await project(root, before);
    for (const file of ['renderer/index.html', 'host/host.mjs', 'host/api-shim.js']) await utimes(join(root, 'dist', file), built, built);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('passes a build newer than every source and build input', () => {
    expect(() => checkFreshDist(root, 'dist')).not.toThrow();
  });

  it.each(['shared/a.ts', 'renderer/main.ts', 'vite.config.ts', 'svelte.config.js', 'scripts/build-node.ts'])('names %s when it changed after the build', async (file) => {
    await utimes(join(root, file), after, after);
    expect(() => checkFreshDist(root, 'dist')).toThrow(`dist/ is older than ${file}: build first`);
  });

  it('says to build when a built file is missing', async () => {
    await rm(join(root, 'dist', 'host', 'host.mjs'));
    expect(() => checkFreshDist(root, 'dist')).toThrow('dist/host/host.mjs is missing: build first');
  });
});
