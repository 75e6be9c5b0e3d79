import { existsSync, readFileSync } from 'node:fs';

/**
 * Adds up the JSON reports of vitest and Playwright into one closing line, and
 * names the suites that were not run (skipped), so "not run" is never silent.
 */
interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const notRun: string[] = [];

const missing: string[] = [];
for (const file of process.argv.slice(2)) {
  // A lane that crashed before writing its report has run nothing countable: a failure, said by name.
  if (!existsSync(file)) {
    missing.push(file);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if ('numPassedTests' in report) {
    total.passed += Number(report.numPassedTests);
    total.failed += Number(report.numFailedTests);
    total.skipped += Number(report.numPendingTests) + Number(report.numTodoTests ?? 0);
  } else {
    const stats = report.stats as { expected: number; unexpected: number; flaky: number; skipped: number };
    total.passed += stats.expected + stats.flaky;
    total.failed += stats.unexpected;
    total.skipped += stats.skipped;
    collectSkips(report, notRun);
  }
}

for (const reason of new Set(notRun)) console.log(`not run: ${reason}`);
for (const file of missing) console.log(`no report: ${file} (its lane ended before writing it)`);
console.log(`${total.passed} passed, ${total.failed + missing.length} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || missing.length > 0 ? 1 : 0);

function collectSkips(node: unknown, out: string[]): void {
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (Array.isArray(record.annotations)) {
    for (const annotation of record.annotations as Array<{ type?: string; description?: string }>) {
      if (annotation.type === 'skip' && annotation.description) out.push(annotation.description);
    }
  }
  for (const value of Object.values(record)) {
    if (Array.isArray(value)) value.forEach((v) => collectSkips(v, out));
    else if (value && typeof value === 'object') collectSkips(value, out);
  }
}
