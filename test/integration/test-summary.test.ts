import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The closing count of `npm test` (scripts/test-summary.ts). CI keeps only the start and the end of
 * a long output; a run once ended "1 failed" with the failing test's name cut out of the middle,
 * so the end names each failure and its first error lines.
 */
const dir = mkdtempSync(join(tmpdir(), 'summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, report: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(report));
  return path;
}

async function summarize(...files: string[]): Promise<{ out: string; code: number }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/test-summary.ts', ...files]);
    return { out: stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { out: failed.stdout, code: failed.code };
  }
}

const vitestReport = {
  numPassedTests: 1,
  numFailedTests: 1,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [
    {
      name: join(process.cwd(), 'test/unit/money.test.ts'),
      status: 'failed',
      assertionResults: [
        { fullName: 'fees round to the cent', status: 'passed', failureMessages: [] },
        {
          fullName: 'fees keep a zero cent',
          status: 'failed',
          failureMessages: ['\u001b[31mAssertionError: expected "1.5" to be "1.50"\u001b[39m\n    at money.test.ts:9:3'],
        },
      ],
    },
    { name: join(process.cwd(), 'test/unit/broken.test.ts'), status: 'failed', message: 'Cannot find module ./gone', assertionResults: [] },
  ],
};

const playwrightReport = {
  stats: { expected: 2, unexpected: 1, flaky: 0, skipped: 0 },
  suites: [
    {
      title: 'renewals.spec.ts',
      file: 'renewals.spec.ts',
      specs: [],
      suites: [
        {
          title: 'Renewals',
          file: 'renewals.spec.ts',
          specs: [
            {
              title: 'a bulk change reaches twenty policies',
              line: 42,
              tests: [{ projectName: 'e2e', status: 'unexpected', results: [{ errors: [{ message: 'Error: 19 of 20 changed' }] }] }],
            },
            { title: 'a reminder', line: 80, tests: [{ projectName: 'e2e', status: 'expected', results: [{}] }] },
          ],
        },
      ],
    },
  ],
};

describe('npm test closing count', () => {
  it('names each failed test, where it is and its first error lines, without colour codes, before the count', async () => {
    const { out, code } = await summarize(write('v.json', vitestReport), write('p.json', playwrightReport));
    expect(code).toBe(1);
    const lines = out.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('3 passed, 3 failed, 0 skipped');
    expect(out).toContain('FAILED test/unit/money.test.ts > fees keep a zero cent\n    AssertionError: expected "1.5" to be "1.50"');
    expect(out).toContain('FAILED test/unit/broken.test.ts\n    Cannot find module ./gone');
    expect(out).toContain('FAILED [e2e] renewals.spec.ts:42 > Renewals > a bulk change reaches twenty policies\n    Error: 19 of 20 changed');
    expect(out).not.toContain('\u001b[');
    expect(out).not.toContain('fees round to the cent');
    expect(out).not.toContain('a reminder');
  });

  it('names the step a timed-out test stopped at, which is its second error, and where it is', async () => {
    const timedOut = {
      stats: { expected: 0, unexpected: 1, flaky: 0, skipped: 0 },
      suites: [
        {
          title: 'capacity-list.spec.ts',
          file: 'capacity-list.spec.ts',
          specs: [
            {
              title: 'the session ends while the list is open',
              line: 172,
              tests: [
                {
                  projectName: 'e2e',
                  status: 'unexpected',
                  results: [
                    {
                      errors: [
                        { message: 'Test timeout of 60000ms exceeded.' },
                        {
                          message: "Error: locator.click: Test timeout of 60000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Refresh' })",
                          location: { file: join(process.cwd(), 'test/e2e/capacity-list.spec.ts'), line: 179, column: 60 },
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const { out, code } = await summarize(write('timeout.json', timedOut));
    expect(code).toBe(1);
    expect(out).toContain(
      'FAILED [e2e] capacity-list.spec.ts:172 > the session ends while the list is open\n' +
        '    at test/e2e/capacity-list.spec.ts:179\n' +
        '    Test timeout of 60000ms exceeded.\n' +
        '    Error: locator.click: Test timeout of 60000ms exceeded.\n' +
        '    Call log:\n' +
        "      - waiting for getByRole('button', { name: 'Refresh' })",
    );
  });

  it('counts an error outside any test (a global set-up that threw) as a failure, with its message', async () => {
    const setUpFailed = { stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 }, suites: [], errors: [{ message: 'Error: dist/ is older than renderer/App.svelte' }] };
    const { out, code } = await summarize(write('setup.json', setUpFailed));
    expect(code).toBe(1);
    expect(out).toContain('outside any test\n    Error: dist/ is older than renderer/App.svelte');
    expect(out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed, 0 skipped');
  });

  it('says nothing of failures when none failed, and ends well', async () => {
    const passing = { ...vitestReport, numFailedTests: 0, testResults: [] };
    const { out, code } = await summarize(write('ok.json', passing));
    expect(code).toBe(0);
    expect(out).not.toContain('FAILED');
    expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped');
  });
});
