import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackAgent } from '../support/loopback-agent.js';

/**
 * The browser host started as `npm start` starts it, with a stand-in browser
 * that records how it was launched, attacked by a second OS user of the same
 * computer: everything that user can read (every process's command line and
 * environment, the data folder) must not let them into the session.
 * Switching users needs root (CI runs as root); elsewhere this suite says so.
 */
const OTHER_UID = 65534; // nobody
const canSwitchUser = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

let workDir = '';
let dataDir = '';
let host: ChildProcess | null = null;
let browserArgs: string[] = [];
let browserPid = 0;
const agent = loopbackAgent();

async function waitFor<T>(what: string, probe: () => Promise<T | null>, ms = 40_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Runs a shell command as the other user; returns what they could see (stdout and stderr). */
function asOtherUser(script: string): string {
  const run = spawnSync('setpriv', [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', '--', 'sh', '-c', script], { encoding: 'utf8', cwd: '/' });
  return `${run.stdout}\n${run.stderr}`;
}

describe.runIf(canSwitchUser)('browser host launch, seen by another user of the computer', () => {
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'cd-other-user-'));
    // Others may enter the folder above the data folder: only the app's own modes protect it.
    await chmod(workDir, 0o755);
    dataDir = join(workDir, 'data');
    const argsFile = join(workDir, 'browser-args.json');
    const browser = join(workDir, 'fake-browser.mjs');
    await writeFile(
      browser,
      `#!${process.execPath}\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(argsFile)}, JSON.stringify({ pid: process.pid, args: process.argv.slice(2) }));\nsetInterval(() => {}, 1000);\n`,
    );
    await chmod(browser, 0o755);
    const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
    host = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron', 'browser-host', 'cli.ts'), '--data-dir', dataDir], {
      cwd: root,
      env: { ...process.env, DISPLAY: ':99', CAPACITY_DESK_BROWSER: browser },
      stdio: 'ignore',
    });
    const launched = await waitFor('the browser to be started', async () =>
      existsSync(argsFile) ? (JSON.parse(await readFile(argsFile, 'utf8')) as { pid: number; args: string[] }) : null,
    );
    browserArgs = launched.args;
    browserPid = launched.pid;
  }, 60_000);

  afterAll(async () => {
    await agent.close();
    if (browserPid) process.kill(browserPid, 'SIGKILL');
    // The host closes its services (logs, settings, the copy) into the data folder as it quits: the folder goes
    // once it has exited, not after a pause it may outlast under load.
    if (host && host.exitCode === null && host.signalCode === null) {
      const exited = once(host, 'exit');
      host.kill('SIGTERM');
      await exited;
    }
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('puts no secret where the other user can read it, and nothing they can read opens a session', async () => {
    const appArg = browserArgs.find((a) => a.startsWith('--app=')) ?? '';
    expect(appArg).toMatch(/^--app=file:\/\//);
    const launchFile = fileURLToPath(appArg.slice('--app='.length));

    const seen = asOtherUser(
      [
        'ps -eo args',
        'for f in /proc/[0-9]*/cmdline; do tr "\\000" " " < "$f" 2>/dev/null; echo; done',
        'for f in /proc/[0-9]*/environ; do tr "\\000" "\\n" < "$f" 2>/dev/null; done',
        `ls -la ${JSON.stringify(dataDir)} ${JSON.stringify(join(dataDir, 'launch'))}`,
        `cat ${JSON.stringify(launchFile)}`,
      ].join('; '),
    );
    // The other user did see the browser's command line: only the file's name is in it.
    expect(seen).toContain(appArg);
    expect(seen).not.toMatch(/__launch\?/);
    expect(seen).toMatch(/Permission denied/);

    const file = await stat(launchFile);
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, 'launch'))).mode & 0o777).toBe(0o700);

    // Every token-like string the other user could read, tried as a launch code and as a cookie.
    const owner = await readFile(launchFile, 'utf8');
    const origin = /url=(http:\/\/cd-[0-9a-f]+\.localhost:\d+)/.exec(owner)?.[1] as string;
    expect(origin).toBeTruthy();
    const candidates = [...new Set(seen.match(/[A-Za-z0-9_-]{20,}/g) ?? [])];
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) {
      const asCode = await request(`${origin}/__launch?code=${candidate}`, { dispatcher: agent });
      await asCode.body.text();
      expect.soft(asCode.statusCode, candidate).toBe(403);
      const asCookie = await request(`${origin}/ipc/session.status`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', cookie: `cd_host=${candidate}` },
        body: '{}',
      });
      await asCookie.body.text();
      expect.soft(asCookie.statusCode, candidate).toBe(401);
    }

    // The owner's browser opens it once; the same address is refused after that, and the file is gone.
    const launchUrl = /url=([^"]+)"/.exec(owner)?.[1]?.replace(/&amp;/g, '&') as string;
    const first = await request(launchUrl, { dispatcher: agent });
    await first.body.text();
    expect(first.statusCode).toBe(200);
    const cookie = String(first.headers['set-cookie']).split(';')[0] as string;
    const status = await request(`${origin}/ipc/session.status`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    expect(await status.body.json()).toMatchObject({ ok: true });
    const second = await request(launchUrl, { dispatcher: agent });
    expect(second.statusCode).toBe(403);
    expect(await second.body.text()).toContain('This launch link cannot be used');
    await waitFor('the launch file to be removed', async () => (existsSync(launchFile) ? null : true), 5_000);
  }, 60_000);
});
