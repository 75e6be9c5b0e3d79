/**
 * How `npm start` runs the app on this computer: Electron as it is, Electron
 * with `--no-sandbox` (only where Chromium's sandbox cannot start), or the
 * browser host. Pure: scripts/lib/launch-facts.ts reads the facts, and
 * test/unit/start/launch-plan.test.ts covers each case.
 */

export interface LaunchFacts {
  readonly platform: NodeJS.Platform;
  /** The Electron executable, or why there is none (scripts/lib/electron-binary.ts). */
  readonly electron: { readonly path: string } | { readonly path: null; readonly reason: string };
  /** The process runs as root (uid 0); Chromium refuses its sandbox then. */
  readonly root: boolean;
  /** DISPLAY or WAYLAND_DISPLAY is set (Linux only; other OSes always have a display). */
  readonly display: boolean;
  /**
   * Unprivileged user namespaces, which Chromium's namespace sandbox needs:
   * false when AppArmor restricts them (Ubuntu 23.10+:
   * kernel.apparmor_restrict_unprivileged_userns = 1) or the kernel turns them
   * off (kernel.unprivileged_userns_clone = 0).
   */
  readonly userNamespaces: boolean;
  /** chrome-sandbox next to the binary is owned by root with the setuid bit (the fallback sandbox). */
  readonly setuidSandbox: boolean;
  /** Where chrome-sandbox is, to say how to enable it. */
  readonly setuidSandboxPath: string | null;
}

export type LaunchPlan =
  | { readonly kind: 'electron'; readonly path: string; readonly switches: readonly string[]; readonly notes: readonly string[] }
  | { readonly kind: 'browser-host'; readonly reason: string };

export function planLaunch(facts: LaunchFacts): LaunchPlan {
  if (facts.electron.path === null) return { kind: 'browser-host', reason: `Electron is not available (${facts.electron.reason})` };
  if (facts.platform !== 'linux') return { kind: 'electron', path: facts.electron.path, switches: [], notes: [] };
  // Electron on Linux aborts at start without an X11 or Wayland server; the browser host prints its address instead.
  if (!facts.display) {
    return { kind: 'browser-host', reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset), so Electron cannot open a window' };
  }
  if (facts.root) {
    return {
      kind: 'electron',
      path: facts.electron.path,
      switches: ['--no-sandbox'],
      notes: ['Running as root: Chromium does not sandbox a root process, so Electron starts with --no-sandbox. Run as a normal user to keep the sandbox.'],
    };
  }
  if (facts.userNamespaces || facts.setuidSandbox) return { kind: 'electron', path: facts.electron.path, switches: [], notes: [] };
  const fix = facts.setuidSandboxPath
    ? ` To keep it: sudo chown root:root '${facts.setuidSandboxPath}' && sudo chmod 4755 '${facts.setuidSandboxPath}'.`
    : '';
  return {
    kind: 'electron',
    path: facts.electron.path,
    switches: ['--no-sandbox'],
    notes: [
      `Chromium's sandbox cannot start here (unprivileged user namespaces are restricted, as AppArmor does on Ubuntu 24.04, and chrome-sandbox is not setuid root), so Electron starts with --no-sandbox.${fix}`,
    ],
  };
}
