import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { FILE_DURATIONS } from '../test/support/balanced-shards.js';

/**
 * Writes test/support/file-durations.json from the vitest JSON reports of a full run (npm test leaves them in
 * artifacts/): each file's wall time in seconds, which npm test's vitest lanes share out by
 * (test/support/balanced-sequencer.ts). Run it after a full run on the machine that CI uses, when files were
 * added or grew; a stale table only makes the lanes less even, never leaves a file out.
 *
 *   npx tsx scripts/test-durations.ts artifacts/vitest-1.json artifacts/vitest-2.json
 */
const reports = process.argv.slice(2);
if (reports.length === 0) {
  console.error('usage: tsx scripts/test-durations.ts <vitest report.json> [...]');
  process.exit(2);
}

interface VitestFileResult {
  readonly name: string;
  readonly startTime: number;
  readonly endTime: number;
}

const durations: Record<string, number> = {};
for (const report of reports) {
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as { testResults: VitestFileResult[] };
  for (const file of testResults) {
    durations[relative(process.cwd(), file.name).split('\\').join('/')] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(FILE_DURATIONS, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${FILE_DURATIONS}: ${Object.keys(sorted).length} files, ${Object.values(sorted).reduce((sum, s) => sum + s, 0).toFixed(0)} s in all`);
