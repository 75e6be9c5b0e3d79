import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { USAGE, parseHostArgs } from '../../../electron/browser-host/cli-options.js';

describe('the browser host command line', () => {
  it('reads its options, and asks for help or says what is wrong instead of throwing', () => {
    expect(parseHostArgs(['--port', '8080', '--no-open'])).toMatchObject({ kind: 'run', options: { port: 8080, noOpen: true } });
    expect(parseHostArgs([])).toMatchObject({ kind: 'run', options: { port: 0, noOpen: false } });
    expect(parseHostArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseHostArgs(['-h'])).toEqual({ kind: 'help' });
    expect(parseHostArgs(['--colour'])).toMatchObject({ kind: 'error', message: expect.stringContaining("'--colour'") });
    expect(parseHostArgs(['--port', 'eighty'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--port must be a whole number') });
  });

  it('prints its usage for --help, with no stack trace, and exits 0; an unknown option exits 2 with the usage', async () => {
    // Each start compiles the host's whole import graph: the two run side by side.
    const [help, wrong] = await Promise.all([runCli('--help'), runCli('--colour')]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(USAGE);
    expect(help.stderr).not.toMatch(/\n\s+at /);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--colour'");
    expect(wrong.stderr).toContain('Usage:');
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});

/** The host's command line as a person runs it; its exit status, whatever it is, is part of the answer. */
function runCli(option: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'electron/browser-host/cli.ts', option], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
