import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AUTHENTICODE_SCRIPT, authenticodeProblem, sandboxProblem, type SmokeKind } from './lib/smoke-expectations.js';
import { smokeLaunch } from './lib/smoke-launch.js';

/**
 * `npm run smoke -- <release dir> [--only appimage,deb,rpm] [--userns-restricted]`:
 * launches what users receive, as they would, in smoke mode (see
 * electron/main/smoke-launch.ts) and fails unless every one starts, loads its
 * page, gets an answer through the preload, and both native modules work.
 * Linux: the AppImage, the .deb installed with apt, and (--only rpm, in a
 * Fedora container) the .rpm installed with dnf. Windows: the NSIS installer
 * run silently, then the app it installed. macOS: the app inside the .dmg.
 * With CAPACITY_DESK_REQUIRE_SIGNING=1: the dmg's signature and Gatekeeper's
 * verdict, and Authenticode "Valid" on the Windows installer and installed exe.
 * --userns-restricted: the system restricts unprivileged user namespaces
 * (Ubuntu 24.04 as shipped): the deb and rpm must still be sandboxed, the
 * AppImage is known to run without the sandbox (smoke-expectations.ts).
 */
const { values, positionals } = parseArgs({
  options: { only: { type: 'string' }, 'userns-restricted': { type: 'boolean', default: false } },
  allowPositionals: true,
  strict: true,
});
const dir = positionals[0];
if (!dir || !existsSync(dir)) {
  console.error('usage: npm run smoke -- <folder with the installers, e.g. release> [--only appimage,deb,rpm] [--userns-restricted]');
  process.exit(2);
}
const usernsRestricted = values['userns-restricted'];
const only = values.only ? new Set(values.only.split(',')) : null;
const PRODUCT = 'Capacity Desk';
const requireSigning = process.env.CAPACITY_DESK_REQUIRE_SIGNING === '1';
const files = readdirSync(dir);
const one = (pattern: RegExp, what: string): string => {
  const found = files.filter((file) => pattern.test(file));
  if (found.length !== 1) throw new Error(`expected one ${what} in ${dir}, found ${found.length ? found.join(', ') : 'none'}`);
  return join(dir, found[0]!);
};
const sh = (command: string, args: string[]): void => {
  console.log(`smoke: ${command} ${args.join(' ')}`);
  execFileSync(command, args, { stdio: 'inherit' });
};
const authenticode = (file: string): void => {
  const json = execFileSync('powershell', ['-NoProfile', '-NonInteractive', '-Command', AUTHENTICODE_SCRIPT(resolve(file))], { encoding: 'utf8' });
  const problem = authenticodeProblem(file, json.trim());
  if (problem) throw new Error(problem);
  console.log(`smoke: ${file}: Authenticode Valid`);
};

const targets: Array<{ name: string; kind: SmokeKind; prepare: () => string; cleanup?: () => void }> = [];
if (process.platform === 'linux') {
  targets.push({
    name: 'AppImage',
    kind: 'appimage',
    prepare: () => {
      const appImage = one(/\.AppImage$/, 'AppImage');
      chmodSync(appImage, 0o755);
      return appImage;
    },
  });
  targets.push({
    name: 'deb, installed with apt',
    kind: 'deb',
    prepare: () => {
      // apt takes a local package only as a path (./x.deb or absolute), never a bare name.
      sh('sudo', ['apt-get', 'install', '-y', '-qq', resolve(one(/\.deb$/, '.deb'))]);
      return `/opt/${PRODUCT}/capacity-desk`;
    },
  });
  targets.push({
    name: 'rpm, installed with dnf',
    kind: 'rpm',
    prepare: () => {
      sh('sudo', ['dnf', 'install', '-y', '-q', resolve(one(/\.rpm$/, '.rpm'))]);
      return `/opt/${PRODUCT}/capacity-desk`;
    },
  });
} else if (process.platform === 'win32') {
  targets.push({
    name: 'NSIS installer, silent install',
    kind: 'nsis',
    prepare: () => {
      const installer = one(/-win-x64\.exe$/, 'NSIS installer');
      if (requireSigning) authenticode(installer);
      // A one-click, per-user installer: /S installs without a window and does not start the app.
      sh(installer, ['/S']);
      const programs = join(process.env.LOCALAPPDATA ?? '', 'Programs');
      const installed = readdirSync(programs)
        .map((folder) => join(programs, folder, `${PRODUCT}.exe`))
        .filter((path) => existsSync(path));
      if (installed.length !== 1) throw new Error(`expected one installed ${PRODUCT}.exe under ${programs}, found ${installed.length}`);
      if (requireSigning) authenticode(installed[0]!);
      return installed[0]!;
    },
  });
} else if (process.platform === 'darwin') {
  const mount = mkdtempSync(join(tmpdir(), 'capacity-desk-dmg-'));
  targets.push({
    name: 'universal app from the dmg',
    kind: 'dmg',
    prepare: () => {
      sh('hdiutil', ['attach', '-nobrowse', '-readonly', '-mountpoint', mount, one(/\.dmg$/, 'dmg')]);
      const app = join(mount, `${PRODUCT}.app`);
      // The universal app: both slices, or Intel or Apple silicon users get nothing that starts.
      const archs = execFileSync('lipo', ['-archs', join(app, 'Contents', 'MacOS', PRODUCT)], { encoding: 'utf8' }).trim().split(/\s+/);
      if (!archs.includes('x86_64') || !archs.includes('arm64')) throw new Error(`the app is not universal (lipo -archs: ${archs.join(' ')})`);
      if (requireSigning) {
        sh('codesign', ['--verify', '--deep', '--strict', '--verbose=2', app]);
        // Gatekeeper's own verdict: Developer ID signed and notarised, as a downloaded copy is judged.
        sh('spctl', ['--assess', '--type', 'execute', '--verbose', app]);
      }
      return join(app, 'Contents', 'MacOS', PRODUCT);
    },
    cleanup: () => sh('hdiutil', ['detach', mount]),
  });
} else {
  console.error(`smoke: nothing to launch on ${process.platform}`);
  process.exit(2);
}

// Without --only, Linux launches the AppImage and the deb (an Ubuntu runner); the rpm is launched by --only rpm on Fedora.
const chosen = targets.filter((target) => (only ? only.has(target.kind) : target.kind !== 'rpm'));
if (chosen.length === 0) {
  console.error(`smoke: --only ${values.only ?? ''} names nothing to launch on ${process.platform}`);
  process.exit(2);
}

let failed = 0;
for (const target of chosen) {
  try {
    const executable = target.prepare();
    console.log(`smoke: launching ${target.name}: ${executable}`);
    const outcome = await smokeLaunch(executable);
    console.log(outcome.output.trim());
    const sandbox = outcome.passed && outcome.sandboxed !== undefined ? sandboxProblem(target.kind, usernsRestricted, outcome.sandboxed) : null;
    const passed = outcome.passed && sandbox === null;
    console.log(`smoke: ${target.name}: ${passed ? 'PASSED' : 'FAILED'}: ${outcome.summary}${sandbox ? `; ${sandbox}` : ''}`);
    if (passed && outcome.sandboxed === false) console.log(`smoke: ${target.name}: runs WITHOUT Chromium's sandbox here (known: the AppImage launcher passes --no-sandbox when user namespaces are restricted; the app says so)`);
    if (!passed) failed += 1;
  } catch (error) {
    failed += 1;
    console.error(`smoke: ${target.name}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    target.cleanup?.();
  }
}
process.exit(failed === 0 ? 0 : 1);
