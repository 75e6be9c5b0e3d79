import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findElectronBinary } from './electron-binary.js';
import type { LaunchFacts } from './launch-plan.js';

/** What this computer offers Electron, read from the environment, /proc and the file system. */
export function readLaunchFacts(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): LaunchFacts {
  const electron = findElectronBinary();
  const setuidSandboxPath = electron.path !== null && platform === 'linux' ? join(dirname(electron.path), 'chrome-sandbox') : null;
  return {
    platform,
    electron,
    root: process.getuid?.() === 0,
    display: platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY),
    userNamespaces: platform === 'linux' ? userNamespacesAllowed() : true,
    setuidSandbox: setuidSandboxPath !== null && isSetuidRoot(setuidSandboxPath),
    setuidSandboxPath,
  };
}

function readSysctl(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** A missing file means the restriction does not exist on this kernel. */
function userNamespacesAllowed(): boolean {
  return (
    readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') !== '1' &&
    readSysctl('/proc/sys/kernel/unprivileged_userns_clone') !== '0'
  );
}

function isSetuidRoot(path: string): boolean {
  try {
    const info = statSync(path);
    return info.uid === 0 && (info.mode & 0o4000) !== 0;
  } catch {
    return false;
  }
}
