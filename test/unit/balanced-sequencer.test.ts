import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { BalancedSequencer } from '../support/balanced-sequencer.js';
import { readDurations } from '../support/balanced-shards.js';

/** What the sequencer reads of a specification: its file and its project's name (maxWorkers 1 as in a lane of one worker). */
function spec(file: string, project: string, maxWorkers = 1): TestSpecification {
  return { moduleId: join(process.cwd(), file), project: { name: project, config: { maxWorkers } } } as unknown as TestSpecification;
}
function sequencer(index: number, count: number): BalancedSequencer {
  return new BalancedSequencer({ config: { root: process.cwd(), shard: { index, count } } } as unknown as Vitest);
}
async function lanes(files: TestSpecification[], count: number): Promise<string[][]> {
  const shards: string[][] = [];
  for (let index = 1; index <= count; index += 1) shards.push((await sequencer(index, count).shard(files)).map((s) => `${s.project.name}:${s.moduleId}`));
  return shards;
}

const FILES = [
  spec('test/crash/cache-crash-safety.test.ts', 'crash'),
  spec('test/integration/replica-refresh-diff.test.ts', 'integration'),
  spec('test/integration/close-quiet.test.ts', 'integration'),
  spec('test/unit/records/records.test.ts', 'unit'),
  spec('test/unit/new-file.test.ts', 'unit'),
  spec('test/integration/session.test.ts', 'integration-keychain'),
  spec('test/integration/session-keychain.test.ts', 'integration-keychain'),
];

describe("npm test's vitest lanes (--shard=i/3)", () => {
  it('run every file in exactly one lane, and the one-at-a-time files all in the last, with nothing else', async () => {
    const shards = await lanes(FILES, 3);
    expect(shards.flat().sort()).toEqual(FILES.map((s) => `${s.project.name}:${s.moduleId}`).sort());
    expect(shards[2]).toEqual(FILES.filter((s) => s.project.name === 'integration-keychain').map((s) => `${s.project.name}:${s.moduleId}`));
    expect(shards[0]?.some((s) => s.startsWith('crash:'))).not.toBe(shards[1]?.some((s) => s.startsWith('crash:')));
  });

  it('share every file out over all lanes when no project runs one at a time, or when there is one lane', async () => {
    const parallel = FILES.filter((s) => s.project.name !== 'integration-keychain');
    const shards = await lanes(parallel, 2);
    expect(shards.every((shard) => shard.length > 0)).toBe(true);
    expect(shards.flat().sort()).toEqual(parallel.map((s) => `${s.project.name}:${s.moduleId}`).sort());
    expect((await lanes(FILES, 1))[0]).toHaveLength(FILES.length);
  });

  it('start the longest files first, keeping the files of a project together', async () => {
    const sorted = await sequencer(1, 1).sort(FILES.filter((s) => s.project.name !== 'integration-keychain'));
    expect(sorted.map((s) => s.project.name)).toEqual(['crash', 'integration', 'integration', 'unit', 'unit']);
    // The longer of the two integration files by the committed table (which a new full run's figures may reorder).
    const table = readDurations();
    const [longer] = ['test/integration/replica-refresh-diff.test.ts', 'test/integration/close-quiet.test.ts'].sort((a, b) => (table[b] ?? 0) - (table[a] ?? 0));
    expect(sorted[1]?.moduleId).toBe(join(process.cwd(), longer ?? ''));
  });
});

describe('the integration-keychain project (vitest.config.ts)', () => {
  const testFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
      .map((entry) => join(entry.parentPath, entry.name));

  it('holds every test file that uses the real keychain under the app’s own names, runs them one at a time, and no other project has them', async () => {
    const keychainFiles = testFiles('test').filter((file) => /\brealKeychain\(|\bopenSecretStore\((\)|undefined\b)/.test(readFileSync(file, 'utf8')));
    expect(keychainFiles).toContain('test/integration/session-keychain.test.ts');
    // The projects as vitest itself resolves them from the configuration, globs and exclusions included.
    const vitest = await createVitest('test', { config: 'vitest.config.ts', watch: false }, {}, { stdout: new PassThrough(), stderr: new PassThrough() });
    try {
      const specs = await vitest.globTestSpecifications();
      const projectsOf = (file: string) => specs.filter((s) => s.moduleId === join(process.cwd(), file)).map((s) => s.project.name);
      for (const file of keychainFiles) expect(projectsOf(file), file).toEqual(['integration-keychain']);
      expect(vitest.projects.find((p) => p.name === 'integration-keychain')?.config.maxWorkers).toBe(1);
    } finally {
      await vitest.close();
    }
  }, 30_000);
});
