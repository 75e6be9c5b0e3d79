import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLaunchFacts } from '../../../scripts/lib/launch-facts.js';
import { planLaunch, type LaunchFacts } from '../../../scripts/lib/launch-plan.js';

const ELECTRON = '/opt/electron/electron';
const linuxDesktop: LaunchFacts = {
  platform: 'linux',
  electron: { path: ELECTRON },
  root: false,
  display: true,
  userNamespaces: true,
  setuidSandbox: false,
  setuidSandboxPath: '/opt/electron/chrome-sandbox',
};
const facts = (change: Partial<LaunchFacts>): LaunchFacts => ({ ...linuxDesktop, ...change });

describe('npm start launch plan', () => {
  it('starts Electron as it is on a Linux desktop whose user namespaces work', () => {
    expect(planLaunch(linuxDesktop)).toEqual({ kind: 'electron', path: ELECTRON, switches: [], notes: [] });
  });

  it('falls back to the browser host when there is no Electron binary, and says why', () => {
    const plan = planLaunch(facts({ electron: { path: null, reason: 'the Electron binary was never downloaded' } }));
    expect(plan).toEqual({ kind: 'browser-host', reason: 'Electron is not available (the Electron binary was never downloaded)' });
  });

  it('falls back to the browser host on Linux with no display', () => {
    const plan = planLaunch(facts({ display: false }));
    expect(plan.kind).toBe('browser-host');
    expect(plan.kind === 'browser-host' && plan.reason).toMatch(/no display.*DISPLAY and WAYLAND_DISPLAY/);
  });

  it('adds --no-sandbox as root (Chromium refuses a sandboxed root process), and says so', () => {
    const plan = planLaunch(facts({ root: true }));
    expect(plan).toMatchObject({ kind: 'electron', switches: ['--no-sandbox'] });
    expect(plan.kind === 'electron' && plan.notes.join(' ')).toMatch(/root/);
  });

  it('adds --no-sandbox where AppArmor restricts user namespaces and chrome-sandbox is not setuid, naming the fix', () => {
    const plan = planLaunch(facts({ userNamespaces: false }));
    expect(plan).toMatchObject({ kind: 'electron', switches: ['--no-sandbox'] });
    const notes = plan.kind === 'electron' ? plan.notes.join(' ') : '';
    expect(notes).toMatch(/user namespaces are restricted/);
    expect(notes).toContain("sudo chmod 4755 '/opt/electron/chrome-sandbox'");
  });

  it('keeps the sandbox when user namespaces are restricted but chrome-sandbox is setuid root', () => {
    expect(planLaunch(facts({ userNamespaces: false, setuidSandbox: true }))).toEqual({ kind: 'electron', path: ELECTRON, switches: [], notes: [] });
  });

  it('never adds a switch on macOS or Windows, even as an administrator', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      expect(planLaunch(facts({ platform, root: true, userNamespaces: false, display: false }))).toEqual({ kind: 'electron', path: ELECTRON, switches: [], notes: [] });
    }
  });
});

describe('launch facts', () => {
  it('reads the display from DISPLAY or WAYLAND_DISPLAY on Linux only', () => {
    expect(readLaunchFacts({}, 'linux').display).toBe(false);
    expect(readLaunchFacts({ DISPLAY: ':99' }, 'linux').display).toBe(true);
    expect(readLaunchFacts({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux').display).toBe(true);
    expect(readLaunchFacts({}, 'darwin').display).toBe(true);
  });

  it('finds a binary given by ELECTRON_OVERRIDE_DIST_PATH and looks for chrome-sandbox beside it', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'electron-dist-'));
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, 'electron'), '');
    await writeFile(join(dist, 'chrome-sandbox'), '');
    const previous = process.env.ELECTRON_OVERRIDE_DIST_PATH;
    process.env.ELECTRON_OVERRIDE_DIST_PATH = dist;
    try {
      const found = readLaunchFacts({ DISPLAY: ':0' }, 'linux');
      expect(found.electron).toEqual({ path: join(dist, 'electron') });
      expect(found.setuidSandboxPath).toBe(join(dist, 'chrome-sandbox'));
      // A file written by this test is not setuid root, whoever runs it.
      expect(found.setuidSandbox).toBe(false);
    } finally {
      if (previous === undefined) delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
      else process.env.ELECTRON_OVERRIDE_DIST_PATH = previous;
    }
  });
});
