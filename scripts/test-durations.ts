import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FILE_DURATIONS } from '../test/support/balanced-shards.js';
import { laneFileTimes, type VitestFileResult } from '../test/support/lane-file-times.js';

/**
 * Writes test/support/file-durations.json from the JSON reports of a full run (npm test leaves them in
 * artifacts/): each vitest file's wall time in its lane (its import, collection and beforeAll included) and
 * each e2e spec file's summed test time, in seconds, which npm test's vitest and browser lanes share their
 * files out by (test/support/balanced-shards.ts). Run it after a full run on the machine CI uses, when files were
 * added or grew; a stale table only makes the lanes less even, never leaves a file out or runs one twice.
 *
 *   npx tsx scripts/test-durations.ts [--root <checkout the reports came from>] artifacts/vitest-*.json artifacts/playwright-e2e-*.json
 */
const USAGE = 'usage: tsx scripts/test-durations.ts [--root <dir>] <vitest or playwright report.json> [...]';
const args = process.argv.slice(2);
// The reports name files by absolute path: keys are relative to the checkout that ran them (default: here).
const root = args[0] === '--root' ? (args[1] ?? '') : process.cwd();
const reports = args[0] === '--root' ? args.slice(2) : args;
if (reports.length === 0 || root === '') {
  console.error(USAGE);
  process.exit(2);
}

interface PlaywrightSuite {
  readonly file?: string;
  readonly suites?: readonly PlaywrightSuite[];
  readonly specs?: ReadonlyArray<{ readonly file: string; readonly tests: ReadonlyArray<{ readonly results: ReadonlyArray<{ readonly duration: number }> }> }>;
}

const milliseconds = new Map<string, number>();
const add = (file: string, ms: number) => {
  const key = relative(root, file).split('\\').join('/');
  milliseconds.set(key, (milliseconds.get(key) ?? 0) + ms);
};
function addSpecs(rootDir: string, suite: PlaywrightSuite): void {
  for (const spec of suite.specs ?? []) for (const test of spec.tests) for (const result of test.results) add(join(rootDir, spec.file), result.duration);
  for (const child of suite.suites ?? []) addSpecs(rootDir, child);
}
for (const report of reports) {
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as { startTime?: number; testResults?: VitestFileResult[]; config?: { rootDir: string }; suites?: PlaywrightSuite[] };
  // A vitest file's time in its lane, its import, collection and beforeAll included (test/support/lane-file-times.ts).
  const files = parsed.testResults ?? [];
  for (const [name, ms] of laneFileTimes(parsed.startTime ?? Math.min(...files.map((file) => file.startTime)), files)) add(name, ms);
  for (const suite of parsed.suites ?? []) addSpecs(parsed.config?.rootDir ?? root, suite);
}
const sorted = Object.fromEntries([...milliseconds].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, ms]) => [file, Math.round(ms / 100) / 10]));
writeFileSync(FILE_DURATIONS, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${FILE_DURATIONS}: ${Object.keys(sorted).length} files, ${Object.values(sorted).reduce((sum, s) => sum + s, 0).toFixed(0)} s in all`);
