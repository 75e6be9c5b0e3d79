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
// CI keeps only the ends of a long output: what failed is said again here, last, beside the count.
const failures: string[] = [];
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
    // A file that failed outside its tests counts once, or the count would say none failed.
    total.failed += collectVitestFailures(report, failures);
  } else {
    const stats = report.stats as { expected: number; unexpected: number; flaky: number; skipped: number };
    total.passed += stats.expected + stats.flaky;
    total.failed += stats.unexpected;
    total.skipped += stats.skipped;
    collectSkips(report, notRun);
    collectPlaywrightFailures(report, [], failures);
    // An error outside any test (global set-up, a file that would not load) ran nothing and fails the run.
    for (const error of (report.errors ?? []) as Array<{ message?: string }>) {
      failures.push(failureLine(`${file}: outside any test`, error.message));
      total.failed += 1;
    }
  }
}

for (const failure of failures) console.log(failure);
for (const reason of new Set(notRun)) console.log(`not run: ${reason}`);
for (const file of missing) console.log(`no report: ${file} (its lane ended before writing it)`);
console.log(`${total.passed} passed, ${total.failed + missing.length} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || missing.length > 0 ? 1 : 0);

interface VitestFile {
  name: string;
  status: string;
  message?: string;
  assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
}

/** Returns how many files failed outside any test. */
function collectVitestFailures(report: Record<string, unknown>, out: string[]): number {
  let filesFailedAlone = 0;
  for (const file of (report.testResults ?? []) as VitestFile[]) {
    const where = file.name.replace(`${process.cwd()}/`, '');
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) out.push(failureLine(`${where} > ${test.fullName}`, test.failureMessages?.[0]));
    // An error outside any test (a failed import, an unhandled rejection) fails the file alone.
    if (failed.length === 0 && file.status === 'failed') {
      out.push(failureLine(where, file.message));
      filesFailedAlone += 1;
    }
  }
  return filesFailedAlone;
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  line?: number;
  suites?: PlaywrightSuite[];
  specs?: Array<{
    title: string;
    line: number;
    tests: Array<{ projectName: string; status: string; results: Array<{ errors?: PlaywrightError[] }> }>;
  }>;
}

interface PlaywrightError {
  message?: string;
  location?: { file: string; line: number };
}

function collectPlaywrightFailures(node: { suites?: PlaywrightSuite[] }, titles: string[], out: string[]): void {
  for (const suite of node.suites ?? []) {
    const path = suite.title.includes('.') ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const last = test.results.at(-1);
        const name = `[${test.projectName}] ${suite.file ?? ''}:${spec.line} > ${[...path, spec.title].join(' > ')}`;
        out.push(failureLine(name, playwrightMessage(last?.errors ?? [])));
      }
    }
    collectPlaywrightFailures(suite, path, out);
  }
}

/**
 * A test's errors as one message: a timeout's first error says only "Test timeout of 30000ms exceeded.", and
 * the step it stopped at (the action, its call log, where in the spec) is the next one.
 */
function playwrightMessage(errors: readonly PlaywrightError[]): string {
  const where = errors.find((error) => error.location)?.location;
  const messages = errors.map((error) => error.message ?? '').join('\n');
  return where ? `at ${where.file.replace(`${process.cwd()}/`, '')}:${where.line}\n${messages}` : messages;
}

/** The failing test by name and the first lines of its error, without colour codes. */
function failureLine(name: string, message: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const plain = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').filter((line) => line.trim() !== '').slice(0, 6);
  return [`FAILED ${name}`, ...lines.map((line) => `    ${line.slice(0, 300)}`)].join('\n');
}

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
