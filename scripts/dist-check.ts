import { listPackage } from '@electron/asar';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { buildDirConflict } from './lib/build-dir.js';
import { readFuses, RELEASE_FUSES, TEST_BUILD_FUSES, type Fuses } from './lib/fuses.js';
import { NATIVE_BINARIES, offendingFiles, REQUIRED_IN_ASAR, universalArchProblem } from './lib/package-rules.js';
import { findPackagedApps, type PackagedApp } from './lib/packaged-app.js';
import { appUpdateProblems, parseUpdateFeed, releaseFeedProblems, UPDATE_FEED_ENV } from './lib/update-feed.js';

/**
 * `npm run dist:check`: everything about the installers that can be checked
 * without signing anything.
 *
 * With no arguments: builds the app into dist/ (the one folder installers are
 * made from, so what is packed is what was just built) and runs the offline
 * packaging checks (electron-builder's schema, a real `--linux dir` pack with
 * a stand-in Electron, fuses, workflows, icons) and the desktop unit tests,
 * then checks whatever electron-builder left in release/ and release/test/.
 *
 * With `--built <dir>:<release|test>` (the workflows, after a real build):
 * checks only those packaged apps, on the real Electron binaries: the fuses
 * as expected for that kind, and app.asar's file list.
 */
const { values } = parseArgs({ options: { built: { type: 'string', multiple: true } }, strict: true });
const Built = z.string().regex(/^.+:(release|test)$/, { error: 'use --built <dir>:<release|test>' });
const built = (values.built ?? []).map((spec) => {
  const text = Built.parse(spec);
  const at = text.lastIndexOf(':');
  return { dir: text.slice(0, at), kind: text.slice(at + 1) as 'release' | 'test' };
});

const failures: string[] = [];

if (built.length === 0) {
  const conflict = buildDirConflict(process.env, process.cwd());
  if (conflict) {
    console.error(`dist:check: ${conflict}`);
    process.exit(1);
  }
  run('npm', ['run', '-s', 'build'], process.env);
  run('npx', ['vitest', 'run', 'test/packaging', 'test/unit/desktop'], process.env);
  for (const [dir, kind] of [['release', 'release'], [join('release', 'test'), 'test']] as const) {
    if (findPackagedApps(dir).length > 0) built.push({ dir, kind });
  }
}

const { version } = z.object({ version: z.string() }).parse(JSON.parse(readFileSync('package.json', 'utf8')));
for (const { dir, kind } of built) {
  const apps = findPackagedApps(dir);
  if (apps.length === 0) failures.push(`${dir}: no packaged app found`);
  for (const app of apps) await checkPackagedApp(app, kind === 'release' ? RELEASE_FUSES : TEST_BUILD_FUSES, kind);
  // The feed uploaded beside the installers (none for a --dir build or the test build).
  if (existsSync(dir)) for (const problem of releaseFeedProblems(dir, version)) failures.push(`${dir}: ${problem}`);
}

if (failures.length > 0) {
  for (const failure of failures) console.error(`dist:check: ${failure}`);
  process.exit(1);
}
console.log('dist:check: all checks passed');

async function checkPackagedApp(app: PackagedApp, expected: Fuses, kind: 'release' | 'test'): Promise<void> {
  const where = `${app.folder}`;
  const fuses = await readFuses(app.fuseFile);
  for (const [name, value] of Object.entries(expected) as Array<[keyof Fuses, boolean]>) {
    if (fuses[name] !== value) failures.push(`${where}: fuse ${name} is ${fuses[name] ? 'on' : 'off'}, expected ${value ? 'on' : 'off'}`);
  }
  const asar = join(app.resources, 'app.asar');
  if (!existsSync(asar)) {
    failures.push(`${where}: no app.asar`);
    return;
  }
  const files = listPackage(asar, { isPack: false }).map((path) => path.replaceAll('\\', '/'));
  for (const required of REQUIRED_IN_ASAR) if (!files.includes(required)) failures.push(`${where}: app.asar lacks ${required}`);
  for (const file of offendingFiles(files)) failures.push(`${where}: app.asar must not ship ${file}`);
  for (const binary of NATIVE_BINARIES) {
    const path = join(app.resources, 'app.asar.unpacked', ...binary.split('/'));
    const name = binary.slice(binary.lastIndexOf('/') + 1);
    if (!existsSync(path)) {
      failures.push(`${where}: ${name} is not unpacked beside app.asar`);
      continue;
    }
    // The universal macOS app runs on Intel and Apple silicon: each native module needs both slices.
    if (process.platform === 'darwin' && app.folder.includes('universal')) {
      const lipo = spawnSync('lipo', ['-archs', path], { encoding: 'utf8' });
      const problem = lipo.status === 0 ? universalArchProblem(name, lipo.stdout) : `${name}: lipo -archs failed (${lipo.stderr.trim()})`;
      if (problem) failures.push(`${where}: ${problem}`);
    }
  }
  const feed = join(app.resources, 'app-update.yml');
  if (kind === 'release') {
    // A Windows release must name its publisher (electron-updater checks updates against it), and the feed must be the one asked for.
    const wanted = parseUpdateFeed(process.env[UPDATE_FEED_ENV]);
    const expectations = { windows: app.folder.startsWith('win'), ...('problem' in wanted ? {} : { feed: wanted }) };
    for (const problem of appUpdateProblems(feed, expectations)) failures.push(`${where}: the release's ${problem}`);
  }
  if (kind === 'test' && existsSync(feed)) failures.push(`${where}: the test build must not carry an update feed`);
  console.log(`dist:check: ${where}: ${kind} fuses and ${files.length} packed files checked`);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  console.log(`dist:check: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.status !== 0) failures.push(`${command} ${args.join(' ')} failed`);
}
