import type { Configuration, TargetConfiguration } from 'app-builder-lib';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../electron/services/desktop/app-identity.js';
import { icnsTypes } from '../../scripts/icons/icns.js';
import { icoSizes } from '../../scripts/icons/ico.js';
import { pngSize } from '../../scripts/icons/png.js';
import { RELEASE_FUSES, TEST_BUILD_FUSES } from '../../scripts/lib/fuses.js';
import { loadBuilderConfig, ROOT, validateBuilderConfig } from './support/builder-config.js';

const targets = (value: unknown): Array<{ target: string; arch: string[] }> =>
  (Array.isArray(value) ? value : [value]).map((entry: string | TargetConfiguration) =>
    typeof entry === 'string' ? { target: entry, arch: [] } : { target: entry.target, arch: [entry.arch ?? []].flat().map(String) },
  );

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own schema, release and test build alike', async () => {
    await expect(validateBuilderConfig(await loadBuilderConfig('electron-builder.yml'))).resolves.toBeUndefined();
    await expect(validateBuilderConfig(await loadBuilderConfig('electron-builder.test.yml'))).resolves.toBeUndefined();
  });

  it('is really validated: an unknown option is refused', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    const broken = { ...config, nsis: { ...config.nsis, perMachin: false } } as Configuration;
    await expect(validateBuilderConfig(broken)).rejects.toThrow(/Invalid configuration object/);
  });

  it('names the app as the code does, and packs it into an asar', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe('Capacity Desk');
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(true);
    const packageJson = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { main: string; build?: unknown };
    expect(packageJson.main).toBe('dist/electron/main.mjs');
    expect(packageJson.build).toBeUndefined();
  });

  it('locks the release build down with every fuse', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(config.electronFuses).toMatchObject(RELEASE_FUSES);
  });

  it('the test build differs only by the inspector fuse Playwright needs, and never publishes', async () => {
    const release = await loadBuilderConfig('electron-builder.yml');
    const test = await loadBuilderConfig('electron-builder.test.yml');
    expect(test.electronFuses).toMatchObject(TEST_BUILD_FUSES);
    expect(test.publish).toBeNull();
    expect(test.directories?.output).not.toBe(release.directories?.output);
    expect({ ...test.electronFuses, enableNodeCliInspectArguments: false }).toEqual(release.electronFuses);
    expect(test.appId).toBe(release.appId);
  });

  it('builds a per-user NSIS installer for Windows with the project icon', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(targets(config.win?.target)).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, deleteAppDataOnUninstall: false });
    expect(config.win?.icon).toBe('build/icon.ico');
    expect(config.win?.verifyUpdateCodeSignature).toBe(true);
  });

  it('builds a universal dmg and zip for macOS, hardened, with entitlements and notarisation', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(targets(config.mac?.target)).toEqual([
      { target: 'dmg', arch: ['universal'] },
      { target: 'zip', arch: ['universal'] },
    ]);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true, icon: 'build/icon.icns' });
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      const plist = await readFile(join(ROOT, String(file)), 'utf8');
      const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
      expect(keys).toContain('com.apple.security.cs.allow-jit');
      // Debugger attachment and unsigned code loading would undo the hardened runtime.
      expect(keys).not.toContain('com.apple.security.get-task-allow');
      expect(keys).not.toContain('com.apple.security.cs.disable-library-validation');
    }
  });

  it('builds AppImage, deb and rpm for Linux that pull in libsecret and libnotify', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(targets(config.linux?.target).map((t) => t.target)).toEqual(['AppImage', 'deb', 'rpm']);
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libsecret-1-0', 'libnotify4', 'libnss3', 'libgtk-3-0']));
    expect(config.rpm?.depends).toEqual(expect.arrayContaining(['libsecret', 'libnotify', 'nss', 'gtk3']));
  });

  it('AppImage uses the current toolset, whose static runtime needs no libfuse.so.2 (Ubuntu 24.04+, Debian 13, Fedora 44)', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    // "0.0.0" (electron-builder 26's default, also what an absent key means) is the legacy FUSE2 runtime.
    expect(config.toolsets?.appimage).toBe('1.0.3');
    const test = await loadBuilderConfig('electron-builder.test.yml');
    expect(test.toolsets?.appimage).toBe('1.0.3');
    // The schema knows the key, so a typo or a retired version cannot slip through.
    await expect(validateBuilderConfig({ ...config, toolsets: { appimage: '9.9.9' } } as unknown as Configuration)).rejects.toThrow(/Invalid configuration object/);
  });

  it('names the GitHub repository the releases are published to (electron-builder derives the feed from it)', async () => {
    const packageJson = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { repository?: unknown };
    expect(packageJson.repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  });

  it('publishes drafts to GitHub releases, the feed electron-updater reads', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(config.publish).toMatchObject({ provider: 'github', releaseType: 'draft' });
  });

  it('keeps no signing secret in the repository', async () => {
    for (const file of ['electron-builder.yml', 'electron-builder.test.yml', 'package.json']) {
      const text = await readFile(join(ROOT, file), 'utf8');
      expect(text).not.toMatch(/certificatePassword|cscKeyPassword|-----BEGIN|APPLE_APP_SPECIFIC_PASSWORD\s*[:=]|[A-Za-z0-9+/]{120,}/);
    }
    const config = await loadBuilderConfig('electron-builder.yml');
    expect(config.win?.signtoolOptions?.certificateFile).toBeUndefined();
    expect(config.win?.signtoolOptions?.certificatePassword).toBeUndefined();
    expect(config.win?.azureSignOptions).toBeUndefined();
  });
});

describe('icons', () => {
  it('every icon the configuration names exists and is the right format', async () => {
    const config = await loadBuilderConfig('electron-builder.yml');
    const png = await readFile(join(ROOT, String(config.linux?.icon)));
    expect(pngSize(png)).toEqual({ width: 1024, height: 1024 });
    const ico = await readFile(join(ROOT, String(config.win?.icon)));
    expect(icoSizes(ico)).toEqual([16, 24, 32, 48, 256]);
    expect(existsSync(join(ROOT, String(config.nsis?.installerIcon)))).toBe(true);
    const icns = await readFile(join(ROOT, String(config.mac?.icon)));
    expect(icnsTypes(icns)).toEqual(['icp4', 'icp5', 'icp6', 'ic07', 'ic08', 'ic09', 'ic10']);
  });
});
