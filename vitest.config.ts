import { svelte } from '@sveltejs/vite-plugin-svelte';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BalancedSequencer, ONE_AT_A_TIME_PROJECT } from './test/support/balanced-sequencer.js';

/**
 * Most unit files import the same modules (zod, the contract, the schemas): run without
 * isolation, a worker imports them once instead of once per file (unit, unit-isolated and
 * stores together: 36-42 CPU-seconds instead of 61, load 19-22). A file that changes what the whole process sees
 * (mocks a module, stubs a global or an environment variable such as TZ, fakes timers,
 * spies, changes directory) would leak into the files after it in that worker, so such a
 * file is found by reading it and runs isolated, as before.
 */
const UNIT_DIRS = ['test/unit', 'test/lint'];
/**
 * The same for the integration files: run isolated, each file is a new process that imports the app's services,
 * the sandbox and their schemas again (8 files: 19.7 CPU-s isolated, 11.3 not, load 49-55). Each file closes
 * what it starts (close-quiet.test.ts proves an app's close owns its work), so the next file in the worker
 * meets none of it.
 */
const INTEGRATION_DIRS = ['test/integration', 'test/sandbox'];
const CHANGES_THE_PROCESS =
  /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|spyOn)\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|\bglobalThis\.\w+\s*=[^=]|process\.(chdir|umask)\(/;
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
/**
 * A file that reads the launch marks (kept once per process: launch-marks.ts) runs in a process of its own: in a
 * shared worker, an app another file started could have reached the step it waits for, and its wait would pass
 * for a launch that never made it.
 */
const READS_THE_PROCESS_MARKS = /\blaunchMarks\(/;
const changesTheProcess = (file: string) => {
  const text = readFileSync(file, 'utf8');
  return CHANGES_THE_PROCESS.test(text) || READS_THE_PROCESS_MARKS.test(text);
};
/**
 * The integration files that use the real keychain under the app's own entry names (`Capacity Desk (sandbox)` and
 * a sandbox user): two of them at once in one keyring read and remove each other's entries (a sign-in of one
 * restored the session another had just expired), so they run one at a time (`integration-keychain`); npm test
 * gives them a lane and a keyring of their own (test/support/balanced-sequencer.ts).
 */
const USES_THE_REAL_KEYCHAIN = /\brealKeychain\(|\bopenSecretStore\((\)|undefined\b)/;
const usesTheRealKeychain = (file: string) => USES_THE_REAL_KEYCHAIN.test(readFileSync(file, 'utf8'));
const processChangingUnitFiles = UNIT_DIRS.flatMap(testFiles).filter(changesTheProcess);
const keychainIntegrationFiles = INTEGRATION_DIRS.flatMap(testFiles).filter(usesTheRealKeychain);
const processChangingIntegrationFiles = INTEGRATION_DIRS.flatMap(testFiles).filter((file) => changesTheProcess(file) && !usesTheRealKeychain(file));

export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time; most integration files wait on
    // sockets, timers and child processes rather than the CPU, so two at once finish sooner
    // (three, beside the browser suite, loaded the machine past what timing tests bear).
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 2),
    // npm test runs the files in two lanes (--shard=1/2, 2/2), shared out by their measured time, not by count.
    sequence: { sequencer: BalancedSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/lint/**/*.test.ts'],
          exclude: processChangingUnitFiles,
          environment: 'node',
          isolate: false,
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: processChangingUnitFiles,
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/sandbox/**/*.test.ts'],
          exclude: [...processChangingIntegrationFiles, ...keychainIntegrationFiles],
          environment: 'node',
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration-isolated',
          include: processChangingIntegrationFiles,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: ONE_AT_A_TIME_PROJECT,
          include: keychainIntegrationFiles,
          environment: 'node',
          // One file at a time: a group of its own, after the others in a run of every project.
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The renderer's rune stores (*.svelte.ts), compiled as the app ships them: the client build, so $state and $derived react.
        plugins: [svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'stores',
          include: ['test/stores/**/*.svelte.test.ts'],
          environment: './test/stores/client-environment.ts',
        },
      },
      {
        // Kill loops: child writers killed at points chosen by their own progress (in npm test; alone: npm run test:slow).
        test: {
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Installers and release pipeline, checked offline: config schema, packed file list, fuses, workflows.
        // In npm test; alone with the kill loops: npm run test:slow.
        test: {
          name: 'packaging',
          include: ['test/packaging/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
