import { extractAll, statFile } from '@electron/asar';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smokeLaunch } from '../../scripts/lib/smoke-launch.js';
import { ROOT } from './support/builder-config.js';
import { packForRun, type PackResult } from './support/pack.js';
import { createStrictElectron, StandInViolation } from './support/strict-electron.js';

/**
 * Proves the WIRING of the packaged app, not Electron: the main bundle and
 * preload taken from the app.asar electron-builder packed are run on a strict
 * stand-in for the `electron` module (support/strict-electron.ts), which
 * throws on any API used before `ready` or in the wrong process. No Chromium
 * runs here; the real thing is the `_electron` suite and the smoke launch of
 * each installer, in the GitHub workflows (docs/release.md).
 */
const HARNESS = join(ROOT, 'test', 'packaging', 'support', 'packaged-main-harness.ts');

let pack: PackResult;
let removePack: (() => Promise<void>) | undefined;
let work: string;
let appDir: string;
let version: string;

const Report = {
  parse: (stdout: string) => JSON.parse(/^REPORT (.*)$/m.exec(stdout)?.[1] ?? 'null') as Record<string, unknown> & {
    violations: string[];
    exposed: string[];
    protocol: Array<{ url: string; status: number; contentType: string | null; csp: string | null }>;
    nativeModulesLoaded: string[];
    webPreferences: Record<string, unknown>;
    sessionStatus: { ok: boolean; value: { keychain: { kind: string; reason?: string } } };
    refusalLines: string[];
    quit: { exitCode: number; heldThenQuit: string[] };
  },
};

function harnessArgs(dir: string, mode: 'wiring' | 'smoke'): string[] {
  const options = { appDir: dir, resources: join(pack.appOutDir, 'resources'), userData: join(work, `data-${mode}`), mode, version };
  return ['--import', 'tsx', HARNESS, JSON.stringify(options)];
}

let report: ReturnType<typeof Report.parse>;

beforeAll(async () => {
  // The run's release pack, shared with pack.test.ts under npm test (support/pack.ts).
  ({ pack, remove: removePack } = await packForRun('electron-builder.yml'));
  work = await mkdtemp(join(tmpdir(), 'capacity-desk-wiring-'));
  appDir = join(work, 'app');
  // What Electron reads through its asar support: the archive, and the unpacked files beside it.
  extractAll(join(pack.appOutDir, 'resources', 'app.asar'), appDir);
  version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const { stdout } = await promisify(execFile)(process.execPath, harnessArgs(appDir, 'wiring'), {
    cwd: ROOT,
    timeout: 120_000,
    env: { ...process.env, CAPACITY_DESK_DISABLE_UPDATES: '1', CAPACITY_DESK_DATA_DIR: join(work, 'data-wiring') },
  });
  report = Report.parse(stdout);
  // A pack and a start-up, on a machine shared with the other packaging checks.
}, 180_000);

afterAll(async () => {
  await Promise.all([removePack?.(), work && rm(work, { recursive: true, force: true })]);
});

describe('wiring proof with a strict electron stand-in (not Electron): the packaged main bundle', () => {
  it('starts with nothing beside it in node_modules but the native modules (electron is the stand-in)', async () => {
    expect((await readdir(join(appDir, 'node_modules'))).sort()).toEqual(['better-sqlite3-multiple-ciphers', 'electron', 'keytar']);
    expect(report).not.toBeNull();
    expect(report.violations).toEqual([]);
    // Quit waited for the services to close, then the app itself exited 0 (issue 30 item 7).
    expect(report.quit).toEqual({ exitCode: 0, heldThenQuit: ['app.quit', 'will-quit prevented', 'app.quit', 'app.quit: exited'] });
    // Registered before ready, as Electron requires; the stand-in would have thrown otherwise.
    expect(report.privilegedSchemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(report.menuInstalled).toBe(true);
  });

  it('serves the renderer on app://capacity-desk with its CSP, and nothing else', () => {
    const [index, missing, outside, otherHost, post] = report.protocol;
    expect(index).toMatchObject({ status: 200, contentType: expect.stringMatching(/^text\/html/) });
    expect(index?.csp).toMatch(/default-src 'none'/);
    for (const refused of [missing, outside, otherHost, post]) expect(refused?.status).toBe(404);
    expect(report.pageUrl).toBe('app://capacity-desk/index.html');
  });

  it('opens its window on the packaged preload, sandboxed and isolated, and the preload answers IPC', () => {
    expect(report.webPreferences).toMatchObject({ preload: join(appDir, 'dist', 'electron', 'preload.cjs'), sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(report.exposed).toEqual(['api']);
    expect(report.appInfo).toEqual({ ok: true, value: expect.objectContaining({ host: 'electron', version, name: 'Capacity Desk' }) });
    expect(report.sessionStatus).toMatchObject({ ok: true, value: { signedIn: false } });
  });

  it('refuses a foreign sender and a subframe, and answers its own top frame', () => {
    const refused = { ok: false, error: { kind: 'forbidden', message: 'Request refused: it did not come from Capacity Desk.' } };
    expect(report.foreignSender).toEqual(refused);
    expect(report.subframeSender).toEqual(refused);
    expect(report.ownSender).toMatchObject({ ok: true });
    // Each refused sender is logged, in fixed words: never the sender's URL.
    expect(report.refusalLines).toEqual([
      expect.stringContaining('refused a request: app.info from a page outside the app'),
      expect.stringContaining('refused a request: app.info from a subframe'),
    ]);
    expect(report.refusalLines.join('\n')).not.toContain('evil.example');
  });

  it('finds keytar’s native module where the packed app has it (unpacked beside app.asar)', () => {
    expect(statFile(join(pack.appOutDir, 'resources', 'app.asar'), 'node_modules/keytar/build/Release/keytar.node')).toMatchObject({ unpacked: true });
    expect(report.nativeModulesLoaded).toEqual([join(appDir, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node')]);
    const keychain = report.sessionStatus.value.keychain;
    // Inside scripts/with-keychain.sh (npm test) a real Secret Service answers; elsewhere the reason must not be a missing module.
    if (process.env.CAPACITY_DESK_KEYCHAIN === 'required') expect(keychain).toEqual({ kind: 'keychain' });
    else expect(keychain.reason ?? '').not.toMatch(/not installed/);
  });
});

describe('the replica database as packed', () => {
  it('loads from the shipped files alone (no `bindings` helper) and opens an encrypted database', () => {
    const load = createRequire(join(appDir, 'package.json'));
    const Database = load('better-sqlite3-multiple-ciphers') as new (file: string, options: { nativeBinding: string }) => {
      pragma(text: string): unknown;
      prepare(sql: string): { get(): unknown };
      close(): void;
    };
    // The packed binding is the one built for this Node here (npmRebuild is off in the check); the release rebuilds it for Electron.
    const binding = join(appDir, 'node_modules', 'better-sqlite3-multiple-ciphers', 'build', 'Release', 'better_sqlite3.node');
    const db = new Database(':memory:', { nativeBinding: binding });
    db.pragma(`cipher = 'sqlcipher'`);
    expect(db.prepare(`SELECT sqlite_version() AS v`).get()).toMatchObject({ v: expect.any(String) });
    db.close();
  });
});

describe('wiring proof with a strict electron stand-in (not Electron): the smoke launch', () => {
  it('CAPACITY_DESK_SMOKE=1 quits 0 once the page loaded and the preload answered', async () => {
    const outcome = await smokeLaunch(process.execPath, harnessArgs(appDir, 'smoke'));
    expect(outcome.summary).toMatch(new RegExp(`^ok: version ${version.replaceAll(".", "\\.")} on ${process.platform}, sandbox on, keychain: `));
    expect(outcome).toMatchObject({ passed: true, code: 0 });
  });

  it('fails, non-zero and saying why, when the page cannot load', async () => {
    const broken = join(work, 'broken-app');
    await cp(appDir, broken, { recursive: true });
    await rm(join(broken, 'dist', 'renderer', 'index.html'));
    const outcome = await smokeLaunch(process.execPath, harnessArgs(broken, 'smoke'));
    expect(outcome.passed).toBe(false);
    expect(outcome.code).toBe(3);
    expect(outcome.summary).toMatch(/app:\/\/capacity-desk\/index.html failed to load/);
  });

  it('a quiet exit 0 without the app’s own verdict is not a pass', async () => {
    const outcome = await smokeLaunch(process.execPath, ['-e', 'process.exit(0)']);
    expect(outcome).toMatchObject({ passed: false, code: 0 });
    expect(outcome.summary).toMatch(/wrote no smoke result/);
  });
});

describe('the strict electron stand-in is strict', () => {
  const standIn = () => createStrictElectron({ version: '1.0.0', appPath: '/app', userData: join(tmpdir(), 'capacity-desk-standin-unused'), isPackaged: true, platform: 'linux' });
  type Main = {
    BrowserWindow: new (options: object) => unknown;
    protocol: { registerSchemesAsPrivileged(schemes: object[]): void; handle(scheme: string, handler: unknown): void };
    session: { defaultSession: unknown };
    app: Record<string, unknown> & { commandLine: { appendSwitch(name: string): void } };
    safeStorage: { encryptString(text: string): Buffer; isEncryptionAvailable(): boolean };
    dialog: { showErrorBox(title: string, content: string): void };
    contextBridge: { exposeInMainWorld(key: string, value: unknown): void };
  };

  it('throws on APIs used before ready that Electron allows only after it', () => {
    const main = standIn().main as unknown as Main;
    expect(() => new main.BrowserWindow({})).toThrow(StandInViolation);
    expect(() => main.session.defaultSession).toThrow(/before the app is ready/);
    expect(() => main.protocol.handle('app', () => undefined)).toThrow(/before the app is ready/);
    expect(() => main.safeStorage.encryptString('secret')).toThrow(/before the app is ready/);
    expect(main.safeStorage.isEncryptionAvailable()).toBe(false);
    // What Electron does allow before ready.
    expect(() => main.dialog.showErrorBox('Capacity Desk could not start', 'reason')).not.toThrow();
    expect(() => main.app.commandLine.appendSwitch('no-sandbox')).not.toThrow();
  });

  it('throws on registering a privileged scheme after ready, on renderer APIs in the main process, and on anything unmodelled', () => {
    const electron = standIn();
    const main = electron.main as unknown as Main;
    electron.emitReady();
    expect(() => main.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: {} }])).toThrow(/before the app is ready/);
    expect(() => main.contextBridge.exposeInMainWorld('api', {})).toThrow(/renderer API, used in the main process/);
    expect(() => main.app.relaunch).toThrow(/app.relaunch is not modelled/);
    expect(() => main.app.commandLine.appendSwitch('no-sandbox')).toThrow(/after the app is ready has no effect/);
  });
});
