import { listPackage } from '@electron/asar';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { buildDirConflict, packedBuildDir } from '../../../scripts/lib/build-dir.js';
import { writeElectronStandIn } from './electron-standin.js';
import { oncePerRun } from '../../support/once-per-run.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** The build under test: the one folder installers are made from (what `npm run build` and `dist:check` just built). */
export function distDir(): string {
  const conflict = buildDirConflict(process.env, ROOT);
  if (conflict) throw new Error(conflict);
  return packedBuildDir(ROOT);
}

/** Files `electron .` loads; without them there is nothing to pack. */
export const REQUIRED_BUILD = ['electron/main.mjs', 'electron/preload.cjs', 'renderer/index.html'] as const;

export type PackConfig = 'electron-builder.yml' | 'electron-builder.test.yml';

export interface PackResult {
  /** The scratch project; the caller removes it. */
  readonly project: string;
  readonly appOutDir: string;
  /** Paths inside app.asar, '/'-rooted as asar lists them. */
  readonly asar: readonly string[];
  /** Paths under app.asar.unpacked, '/'-rooted. */
  readonly unpacked: readonly string[];
  /** Files beside app.asar in resources/. */
  readonly resources: readonly string[];
  readonly executable: string;
  readonly log: string;
}

/**
 * Packs the app the way the release does, minus the downloads: a scratch copy
 * of the project (package.json, lockfile, electron-builder configs, build/,
 * the built dist/ and a link to node_modules), a stand-in Electron folder, and
 * `electron-builder --linux dir` with the real configuration extended only by
 * where Electron comes from, no native rebuild (keytar is already built for
 * this machine). The update feed's owner and repo come from package.json's
 * repository, as in a local `npm run dist`.
 */
export async function packLinuxDir(configFile: PackConfig, into?: string): Promise<PackResult> {
  const dist = distDir();
  const missing = REQUIRED_BUILD.filter((file) => !existsSync(join(dist, file)));
  if (missing.length > 0) throw new Error(`No build to pack in ${dist} (missing ${missing.join(', ')}): run \`npm run build\` first.`);

  // The scratch folder holds only what the check adds (stand-in Electron, config, output); the
  // project packed is the repository itself, so electron-builder collects its dependencies from the
  // real node_modules exactly as a release build does (a linked copy confused npm's tree in a fresh clone).
  const project = into ?? (await mkdtemp(join(tmpdir(), 'capacity-desk-pack-')));
  const electronVersion = JSON.parse(await readFile(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')).version as string;
  await writeElectronStandIn(join(project, 'electron-standin'), electronVersion);
  const checkConfig = join(project, 'electron-builder.check.yml');
  await writeFile(
    checkConfig,
    stringify({
      extends: join(ROOT, configFile),
      electronDist: join(project, 'electron-standin'),
      npmRebuild: false,
      directories: { output: join(project, 'out'), buildResources: join(ROOT, 'build') },
    }),
  );

  const { stdout, stderr } = await run(
    process.execPath,
    [join(ROOT, 'node_modules', 'electron-builder', 'cli.js'), '--projectDir', ROOT, '--config', checkConfig, '--linux', 'dir', '--x64', '--publish', 'never'],
    {
      cwd: ROOT,
      timeout: 90_000,
      maxBuffer: 16 * 1024 * 1024,
      // Anything that tries the network fails fast instead of hanging: the check is offline by construction.
      env: { ...process.env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', npm_config_offline: 'true', CI: 'true' },
    },
  );
  const appOutDir = join(project, 'out', 'linux-unpacked');
  const resources = join(appOutDir, 'resources');
  const unpackedRoot = join(resources, 'app.asar.unpacked');
  return {
    project,
    appOutDir,
    asar: listPackage(join(resources, 'app.asar'), { isPack: false }).map((path) => path.replaceAll('\\', '/')),
    unpacked: existsSync(unpackedRoot) ? (await walk(unpackedRoot)).map((path) => `/${relative(unpackedRoot, path).replaceAll('\\', '/')}`) : [],
    resources: await readdir(resources),
    executable: join(appOutDir, 'capacity-desk'),
    log: `${stdout}\n${stderr}`,
  };
}

/** Set by npm test (scripts/test.sh): a folder of the run's where each configuration's pack is made once. */
export const PACK_RUN_DIR_ENV = 'CD_PACK_RUN_DIR';

/**
 * A configuration's pack for this run. Under npm test the first packaging file to ask makes it in the run's folder
 * and every other one reads that pack (pack.test.ts and wiring.test.ts both check the release pack, in one lane or
 * two: 4.9 CPU-s a pack, suite14); none of them writes into it. A file run alone packs its own. `remove` takes away
 * a pack the file made for itself and leaves the run's to the run.
 */
export async function packForRun(configFile: PackConfig): Promise<{ pack: PackResult; remove(): Promise<void> }> {
  const runDir = process.env[PACK_RUN_DIR_ENV];
  if (!runDir) {
    const pack = await packLinuxDir(configFile);
    return { pack, remove: () => rm(pack.project, { recursive: true, force: true }) };
  }
  const pack = await oncePerRun(join(runDir, configFile.replace(/\.yml$/, '')), (dir) => packLinuxDir(configFile, dir), { timeoutMs: 170_000 });
  return { pack, remove: async () => {} };
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}
