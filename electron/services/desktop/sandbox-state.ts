import type { HostFeature } from '../../../shared/ipc/desktop.js';

/**
 * Whether Chromium's sandbox is on in this run. Nothing in the app passes
 * --no-sandbox, but electron-builder's AppImage launcher does when the system
 * restricts unprivileged user namespaces (Ubuntu 24.04+): that copy then runs
 * without the sandbox, which the person must be told (and the log must say).
 */
export function sandboxState(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): HostFeature {
  if (!argv.includes('--no-sandbox')) return { available: true };
  if (env.APPIMAGE) {
    return {
      available: false,
      reason:
        "Chromium's sandbox is off: the AppImage started without it because this system restricts unprivileged user namespaces (Ubuntu 24.04 and later). Install the .deb or .rpm package instead, which keeps the sandbox on.",
    };
  }
  return { available: false, reason: "Chromium's sandbox is off: Capacity Desk was started with --no-sandbox. Start it without that switch." };
}
