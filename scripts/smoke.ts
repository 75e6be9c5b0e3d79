import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { smokeLaunch } from './lib/smoke-launch.js';

/**
 * `npm run smoke -- <release dir>`: launches what users receive, as they
 * would, in smoke mode (see electron/main/smoke-launch.ts) and fails unless
 * every one starts, loads its page and gets an answer through the preload.
 * Linux: the AppImage, and the .deb installed with apt. Windows: the NSIS
 * installer run silently, then the app it installed. macOS: the app inside
 * the .dmg, after checking its signature and Gatekeeper's verdict when the
 * build had to be signed (CAPACITY_DESK_REQUIRE_SIGNING=1).
 */
const dir = process.argv[2];
if (!dir || !existsSync(dir)) {
  console.error('usage: npm run smoke -- <folder with the installers, e.g. release>');
  process.exit(2);
}
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

const targets: Array<{ name: string; prepare: () => string; cleanup?: () => void }> = [];
if (process.platform === 'linux') {
  targets.push({
    name: 'AppImage',
    prepare: () => {
      const appImage = one(/\.AppImage$/, 'AppImage');
      chmodSync(appImage, 0o755);
      return appImage;
    },
  });
  targets.push({
    name: 'deb, installed with apt',
    prepare: () => {
      // apt takes a local package only as a path (./x.deb or absolute), never a bare name.
      sh('sudo', ['apt-get', 'install', '-y', '-qq', resolve(one(/\.deb$/, '.deb'))]);
      return `/opt/${PRODUCT}/capacity-desk`;
    },
  });
} else if (process.platform === 'win32') {
  targets.push({
    name: 'NSIS installer, silent install',
    prepare: () => {
      // A one-click, per-user installer: /S installs without a window and does not start the app.
      sh(one(/-win-x64\.exe$/, 'NSIS installer'), ['/S']);
      const programs = join(process.env.LOCALAPPDATA ?? '', 'Programs');
      const installed = readdirSync(programs)
        .map((folder) => join(programs, folder, `${PRODUCT}.exe`))
        .filter((path) => existsSync(path));
      if (installed.length !== 1) throw new Error(`expected one installed ${PRODUCT}.exe under ${programs}, found ${installed.length}`);
      return installed[0]!;
    },
  });
} else if (process.platform === 'darwin') {
  const mount = mkdtempSync(join(tmpdir(), 'capacity-desk-dmg-'));
  targets.push({
    name: 'universal app from the dmg',
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

let failed = 0;
for (const target of targets) {
  try {
    const executable = target.prepare();
    console.log(`smoke: launching ${target.name}: ${executable}`);
    const outcome = await smokeLaunch(executable);
    console.log(outcome.output.trim());
    console.log(`smoke: ${target.name}: ${outcome.passed ? 'PASSED' : 'FAILED'}: ${outcome.summary}`);
    if (!outcome.passed) failed += 1;
  } catch (error) {
    failed += 1;
    console.error(`smoke: ${target.name}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    target.cleanup?.();
  }
}
process.exit(failed === 0 ? 0 : 1);
