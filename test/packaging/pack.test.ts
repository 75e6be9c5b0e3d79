import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extractAll } from '@electron/asar';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFuses, RELEASE_FUSES, TEST_BUILD_FUSES } from '../../scripts/lib/fuses.js';
import { MAIN_EXTERNAL, NATIVE_MODULES } from '../../scripts/lib/bundle-rules.js';
import { NATIVE_BINARIES, offendingFiles, REQUIRED_IN_ASAR } from '../../scripts/lib/package-rules.js';
import { appUpdateProblems } from '../../scripts/lib/update-feed.js';
import { ROOT } from './support/builder-config.js';
import { writeElectronStandIn } from './support/electron-standin.js';
import { distDir, packForRun, type PackResult } from './support/pack.js';
import { runtimeSpecifiers } from './support/runtime-specifiers.js';

/**
 * Packs the app with electron-builder itself (`--linux dir`, a stand-in
 * Electron folder, no downloads) and checks what would ship: app.asar holds
 * the built main, preload and renderer and the production dependencies, and
 * nothing else; the fuses were flipped in the binary.
 */
let release: PackResult;
let testBuild: PackResult;
const removals: Array<() => Promise<void>> = [];

beforeAll(async () => {
  // The release pack is the run's, shared with wiring.test.ts under npm test (support/pack.ts).
  const packs = await Promise.all([packForRun('electron-builder.yml'), packForRun('electron-builder.test.yml')]);
  [release, testBuild] = packs.map(({ pack }) => pack) as [PackResult, PackResult];
  removals.push(...packs.map(({ remove }) => remove));
});

afterAll(async () => {
  await Promise.all(removals.map((remove) => remove()));
});

interface LockPackage {
  /** Only in the dev tree. (`devOptional` packages are also needed by an optional production dependency: keytar.) */
  readonly dev?: boolean;
}

async function lockPackages(): Promise<Array<{ name: string; dev: boolean }>> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
  return Object.entries(lock.packages)
    .filter(([path]) => path.startsWith('node_modules/'))
    .map(([path, info]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), dev: info.dev === true }));
}

/** Names of the packages in the archive (hoisting may differ from npm's, names do not). */
function packagesIn(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(file);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

/** Node's own modules, including those newer than the Node running the tests (Electron's is newer: node:sqlite). */
const isNodeModule = (name: string): boolean => name.startsWith('node:') || isBuiltin(name);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => `/${relative(dir, join(entry.parentPath, entry.name)).replaceAll('\\', '/')}`);
}

describe('the packed app (release configuration)', () => {
  it('holds the built main process, preload and every renderer file', async () => {
    const packageJson = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(release.asar).toContain(`/${packageJson.main}`);
    expect(release.asar).toContain('/dist/electron/preload.cjs');
    const renderer = await filesUnder(join(distDir(), 'renderer'));
    expect(renderer.length).toBeGreaterThan(1);
    for (const file of renderer) expect(release.asar).toContain(`/dist/renderer${file}`);
  });

  it('ships only the native modules as node_modules, their bindings outside the archive', () => {
    expect([...packagesIn([...release.asar, ...release.unpacked])].sort()).toEqual([...NATIVE_MODULES].sort());
    expect(release.unpacked).toContain('/node_modules/keytar/build/Release/keytar.node');
    expect(release.unpacked).toContain('/node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node');
    // What each loads at run time (its main, its binding) and its licence; not install-time tools, sources or test bindings.
    expect(release.asar.filter((file) => file.startsWith('/node_modules/') && !file.endsWith('/'))).toEqual(
      expect.arrayContaining([
        '/node_modules/keytar/package.json',
        '/node_modules/keytar/lib/keytar.js',
        '/node_modules/keytar/LICENSE.md',
        '/node_modules/better-sqlite3-multiple-ciphers/package.json',
        '/node_modules/better-sqlite3-multiple-ciphers/lib/index.js',
        '/node_modules/better-sqlite3-multiple-ciphers/LICENSE',
      ]),
    );
    const sqlite = [...release.asar, ...release.unpacked].filter((file) => file.startsWith('/node_modules/better-sqlite3-multiple-ciphers/'));
    expect(sqlite.filter((file) => /\/(src|deps)\/|test_extension|\.a$|binding\.gyp$/.test(file))).toEqual([]);
  });

  it('the main bundle loads nothing at run time but Node’s modules, electron and the native modules', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-asar-'));
    try {
      extractAll(join(release.appOutDir, 'resources', 'app.asar'), dir);
      const main = await readFile(join(dir, 'dist', 'electron', 'main.mjs'), 'utf8');
      const loaded = runtimeSpecifiers(main);
      // electron-updater, undici and zod are in the bundle, not looked up inside app.asar.
      expect(loaded.filter((name) => !isNodeModule(name))).toEqual([...MAIN_EXTERNAL].filter((name) => loaded.includes(name)).sort());
      expect(loaded).toContain('electron');
      expect(main).toContain('autoDownload');
      // keytar and the replica database are asked for by name (createRequire), so they must be shipped node modules.
      expect(loaded).toContain('keytar');
      expect(loaded).toContain('better-sqlite3-multiple-ciphers');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the rule that finds what a bundle loads reads calls and imports, not text that quotes them', () => {
    const code = `import a from "pkg-a"; export * from "pkg-b"; const m = "require('quoted')"; require2("pkg-c"); import("pkg-d"); require("./local"); console.log(\`import x from "templated"\`);`;
    expect(runtimeSpecifiers(code)).toEqual(['pkg-a', 'pkg-b', 'pkg-c', 'pkg-d']);
  });

  it('the list of native modules is every installed run-time package with a compiled binding', async () => {
    // Development-only native modules would never ship (there are none today).
    const devOnly = new Set((await lockPackages()).filter((pkg) => pkg.dev).map((pkg) => pkg.name));
    const installed = (await readdir(join(ROOT, 'node_modules'), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'node_modules', entry.name, 'binding.gyp')))
      .map((entry) => entry.name);
    expect(installed.filter((name) => !devOnly.has(name)).sort()).toEqual([...NATIVE_MODULES].sort());
    expect(installed).toEqual(expect.arrayContaining(['keytar', 'better-sqlite3-multiple-ciphers']));
  });

  it('holds no development dependency', async () => {
    const packages = await lockPackages();
    const devOnly = new Set(packages.filter((pkg) => pkg.dev).map((pkg) => pkg.name));
    // Bundled into main.mjs, so development-time packages now.
    for (const name of ['electron', 'vitest', 'electron-updater', 'undici', 'zod']) expect(devOnly).toContain(name);
    const shipped = packagesIn(release.asar);
    expect([...shipped].filter((name) => devOnly.has(name))).toEqual([]);
  });

  it('holds no sources, tests, source maps, docs or browser-host files', () => {
    expect(offendingFiles([...release.asar, ...release.unpacked])).toEqual([]);
    expect(release.asar).toEqual(expect.arrayContaining([...REQUIRED_IN_ASAR]));
  });

  it('the rule that finds such files does find them', () => {
    const planted = ['/electron/main/main.ts', '/dist/electron/main.mjs.map', '/node_modules/zod/README.md', '/node_modules/undici/test/x.js', '/dist/host/host.mjs', '/test/e2e/a.js'];
    expect(offendingFiles([...planted, '/dist/electron/main.mjs', '/node_modules/zod/index.js', '/node_modules/sax/LICENSE.md'])).toEqual(planted);
  });

  it('keeps the licences of the packages it ships', () => {
    expect(release.asar).toContain('/node_modules/keytar/LICENSE.md');
    expect(release.asar).toContain('/node_modules/better-sqlite3-multiple-ciphers/LICENSE');
    expect(release.asar.filter((file) => /\.md$/i.test(file) && !/\/licen[cs]e[^/]*$/i.test(file))).toEqual([]);
  });

  it('has the update feed and the icon beside the archive', async () => {
    expect(release.resources).toEqual(expect.arrayContaining(['app.asar', 'app-update.yml', 'icon.png']));
    const feed = parse(await readFile(join(release.appOutDir, 'resources', 'app-update.yml'), 'utf8')) as Record<string, unknown>;
    // owner and repo come from package.json's repository (pack.ts adds no publish settings).
    expect(feed).toMatchObject({ provider: 'github', owner: 'capacity-desk', repo: 'capacity-desk' });
    expect(appUpdateProblems(join(release.appOutDir, 'resources', 'app-update.yml'))).toEqual([]);
  });

  it('flipped the fuses in the binary: no Node mode, no NODE_OPTIONS, no inspector, asar only and checked', async () => {
    expect(await readFuses(release.executable)).toEqual(RELEASE_FUSES);
  });

  it('started from Electron’s permissive defaults, so the state above is electron-builder’s doing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-standin-'));
    try {
      await writeElectronStandIn(dir, '45.0.0');
      expect(await readFuses(join(dir, 'electron'))).toMatchObject({ runAsNode: true, enableNodeCliInspectArguments: true, onlyLoadAppFromAsar: false });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('downloaded nothing', () => {
    expect(release.log).not.toMatch(/downloading|downloaded/i);
  });
});

describe('the packed test build', () => {
  it('ships the same files as the release', () => {
    expect([...testBuild.asar].sort()).toEqual([...release.asar].sort());
  });

  it('has the inspector fuse on (Playwright attaches with --inspect) and everything else locked', async () => {
    expect(await readFuses(testBuild.executable)).toEqual(TEST_BUILD_FUSES);
  });

  it('has no update feed, so it can never update itself into a release', () => {
    expect(testBuild.resources).not.toContain('app-update.yml');
  });
});

describe('npm run dist:check on packaged output', () => {
  const distCheck = (spec: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/dist-check.ts', '--built', spec], { cwd: ROOT, timeout: 60_000 });

  it('accepts the release and the test build as what they are', async () => {
    const { stdout } = await distCheck(`${dirname(release.appOutDir)}:release`);
    expect(stdout).toMatch(/linux-unpacked: release fuses and \d+ packed files checked/);
    await expect(distCheck(`${dirname(testBuild.appOutDir)}:test`)).resolves.toBeTruthy();
  });

  /** A copy of the packed release output to spoil, so the other checks keep the real one. */
  async function spoiledCopy(spoil: (outputDir: string, resources: string) => Promise<void>): Promise<string> {
    const outputDir = await mkdtemp(join(tmpdir(), 'capacity-desk-spoiled-'));
    await cp(release.appOutDir, join(outputDir, 'linux-unpacked'), { recursive: true });
    await spoil(outputDir, join(outputDir, 'linux-unpacked', 'resources'));
    return outputDir;
  }

  it('parses the update feed: refuses an app-update.yml with no provider (a build with no repository)', async () => {
    const outputDir = await spoiledCopy((_, resources) => writeFile(join(resources, 'app-update.yml'), 'updaterCacheDirName: capacity-desk-updater\n'));
    try {
      await expect(distCheck(`${outputDir}:release`)).rejects.toMatchObject({ stderr: expect.stringMatching(/app-update\.yml: provider: no provider: the build had no update feed \(CAPACITY_DESK_UPDATE_FEED\)/) });
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  });

  it('parses latest*.yml beside the installers: this version, real files, SHA-512 sums', async () => {
    const version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const installer = 'capacity-desk-x86_64.AppImage';
    const body = Buffer.from('an installer');
    const sha512 = createHash('sha512').update(body).digest('base64');
    const feed = (v: string, url: string) => stringify({ version: v, files: [{ url, sha512, size: body.length }], path: url, sha512, releaseDate: '2026-11-22T20:00:00.000Z' });
    const good = await spoiledCopy(async (outputDir) => {
      await writeFile(join(outputDir, installer), body);
      await writeFile(join(outputDir, 'latest-linux.yml'), feed(version, installer));
    });
    const bad = await spoiledCopy(async (outputDir) => {
      await writeFile(join(outputDir, 'latest-linux.yml'), feed('0.0.1-stale', 'gone.AppImage'));
      await writeFile(join(outputDir, 'latest.yml'), 'version: 1\n');
    });
    try {
      await expect(distCheck(`${good}:release`)).resolves.toBeTruthy();
      const refused = distCheck(`${bad}:release`);
      await expect(refused).rejects.toMatchObject({ stderr: expect.stringContaining('latest-linux.yml: version 0.0.1-stale, but package.json says') });
      await expect(refused).rejects.toMatchObject({ stderr: expect.stringContaining('latest-linux.yml: lists gone.AppImage') });
      await expect(refused).rejects.toMatchObject({ stderr: expect.stringMatching(/latest\.yml: version: .*files: /) });
    } finally {
      await Promise.all([good, bad].map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });

  it.each(NATIVE_BINARIES.map((binary) => [binary.slice(binary.lastIndexOf('/') + 1), binary]))(
    'refuses a release whose %s is not unpacked beside app.asar (it cannot be loaded from inside the archive)',
    async (name, binary) => {
      const outputDir = await spoiledCopy((_, resources) => rm(join(resources, 'app.asar.unpacked', ...binary.split('/'))));
      try {
        await expect(distCheck(`${outputDir}:release`)).rejects.toMatchObject({ stderr: expect.stringContaining(`linux-unpacked: ${name} is not unpacked beside app.asar`) });
      } finally {
        await rm(outputDir, { recursive: true, force: true });
      }
    },
  );

  it('refuses a test build passed off as a release', async () => {
    await expect(distCheck(`${dirname(testBuild.appOutDir)}:release`)).rejects.toMatchObject({
      stderr: expect.stringMatching(/fuse enableNodeCliInspectArguments is on, expected off[\s\S]*no app-update.yml/),
    });
  });
});
