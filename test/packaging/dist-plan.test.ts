import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildDirConflict, packedBuildDir } from '../../scripts/lib/build-dir.js';
import { parseDistArgs, planDist, TEST_CONFIG } from '../../scripts/lib/dist-plan.js';
import { ROOT } from './support/builder-config.js';
import { distDir } from './support/pack.js';

const release = parseDistArgs([]);

describe('npm run dist: what is built and how it is signed', () => {
  it('parses its flags strictly', () => {
    expect(parseDistArgs(['--test'])).toEqual({ test: true, dir: false, publish: 'never' });
    expect(parseDistArgs(['--publish', 'always', '--dir'])).toEqual({ test: false, dir: true, publish: 'always' });
    expect(() => parseDistArgs(['--publish', 'sometimes'])).toThrow();
    expect(() => parseDistArgs(['--sign-with', 'x'])).toThrow();
  });

  it('the test build uses its own configuration, unpacked, never signed or published', () => {
    expect(planDist(parseDistArgs(['--test']), { CSC_LINK: 'x' }, 'linux')).toMatchObject({ config: TEST_CONFIG, dir: true, publish: 'never', missing: [] });
    expect(() => planDist(parseDistArgs(['--test', '--publish', 'always']), {}, 'linux')).toThrow(/never published/);
  });

  it('Windows: Azure Trusted Signing from AZURE_* variables', () => {
    const plan = planDist(
      release,
      {
        AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://eus.codesigning.azure.net',
        AZURE_TRUSTED_SIGNING_ACCOUNT: 'capacity-desk',
        AZURE_TRUSTED_SIGNING_PROFILE: 'public-trust',
        AZURE_TRUSTED_SIGNING_PUBLISHER: 'Capacity Desk Ltd',
        AZURE_TENANT_ID: 't',
        AZURE_CLIENT_ID: 'c',
        AZURE_CLIENT_SECRET: 's',
      },
      'win32',
    );
    expect(plan.missing).toEqual([]);
    expect(plan.config).toEqual({
      win: {
        azureSignOptions: {
          endpoint: 'https://eus.codesigning.azure.net',
          codeSigningAccountName: 'capacity-desk',
          certificateProfileName: 'public-trust',
          publisherName: 'Capacity Desk Ltd',
        },
      },
    });
  });

  it('Windows: names what Azure signing still lacks', () => {
    const plan = planDist(release, { AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://eus.codesigning.azure.net' }, 'win32');
    expect(plan.missing).toEqual([
      'AZURE_TRUSTED_SIGNING_ACCOUNT',
      'AZURE_TRUSTED_SIGNING_PROFILE',
      'AZURE_TRUSTED_SIGNING_PUBLISHER',
      'AZURE_TENANT_ID',
      'AZURE_CLIENT_ID',
      'AZURE_CLIENT_SECRET',
    ]);
  });

  it('Windows: a certificate from WIN_CSC_LINK is left to electron-builder, which reads it itself', () => {
    expect(planDist(release, { WIN_CSC_LINK: 'base64...', WIN_CSC_KEY_PASSWORD: 'p' }, 'win32')).toMatchObject({ config: {}, missing: [] });
    expect(planDist(release, { WIN_CSC_LINK: 'base64...' }, 'win32').missing).toEqual(['WIN_CSC_KEY_PASSWORD']);
    expect(planDist(release, {}, 'win32').missing).toEqual(['AZURE_TRUSTED_SIGNING_* or WIN_CSC_LINK']);
  });

  it('macOS: signs and notarises with the certificate and App Store Connect key', () => {
    const env = { CSC_LINK: 'p12', CSC_KEY_PASSWORD: 'p', APPLE_API_KEY: '/tmp/key.p8', APPLE_API_KEY_ID: 'K', APPLE_API_ISSUER: 'I' };
    expect(planDist(release, env, 'darwin')).toMatchObject({ config: {}, missing: [] });
    const appleId = { CSC_LINK: 'p12', CSC_KEY_PASSWORD: 'p', APPLE_ID: 'a@b.c', APPLE_APP_SPECIFIC_PASSWORD: 'x', APPLE_TEAM_ID: 'T' };
    expect(planDist(release, appleId, 'darwin')).toMatchObject({ config: {}, missing: [] });
  });

  it('macOS: without a certificate the local build is unsigned and not notarised, and says so', () => {
    const plan = planDist(release, {}, 'darwin');
    expect(plan.config).toEqual({ mac: { identity: null, notarize: false } });
    expect(plan.missing).toEqual(['CSC_LINK', 'CSC_KEY_PASSWORD']);
    const unnotarised = planDist(release, { CSC_LINK: 'p12', CSC_KEY_PASSWORD: 'p' }, 'darwin');
    expect(unnotarised.config).toEqual({ mac: { notarize: false } });
    expect(unnotarised.missing).toHaveLength(1);
  });

  it('publishes to the repository the workflow runs in, and needs a token to do so', () => {
    const plan = planDist(parseDistArgs(['--publish', 'always']), { CAPACITY_DESK_UPDATE_FEED: 'github:acme/capacity-desk', GH_TOKEN: 't' }, 'linux');
    expect(plan.config).toEqual({ publish: { provider: 'github', owner: 'acme', repo: 'capacity-desk', releaseType: 'draft' } });
    expect(plan.missing).toEqual([]);
    expect(plan.refused).toBeNull();
    expect(planDist(parseDistArgs(['--publish', 'always']), { CAPACITY_DESK_UPDATE_FEED: 'github:acme/capacity-desk' }, 'linux').missing).toEqual(['GH_TOKEN']);
  });
});

describe('the update feed is a release-time setting (issue 30 item 10)', () => {
  it('refuses a release build that names no feed: package.json\'s repository (a placeholder) is never used', () => {
    for (const env of [{}, { GITHUB_REPOSITORY: 'acme/capacity-desk' }, { CAPACITY_DESK_UPDATE_FEED: '  ' }]) {
      const plan = planDist(release, env, 'linux');
      expect(plan.refused).toMatch(/CAPACITY_DESK_UPDATE_FEED is not set/);
      expect(plan.config).not.toHaveProperty('publish');
    }
    // The test build has no feed and needs none.
    expect(planDist(parseDistArgs(['--test']), {}, 'linux').refused).toBeNull();
  });

  it('takes a GitHub repository, a generic HTTPS feed (the private-repository route), or none', () => {
    expect(planDist(release, { CAPACITY_DESK_UPDATE_FEED: 'https://updates.example.com/capacity-desk/' }, 'win32').config).toMatchObject({
      publish: { provider: 'generic', url: 'https://updates.example.com/capacity-desk/' },
    });
    expect(planDist(release, { CAPACITY_DESK_UPDATE_FEED: 'none' }, 'linux')).toMatchObject({ config: { publish: null }, refused: null, feed: 'none: this build never updates itself' });
    for (const [value, problem] of [
      ['http://updates.example.com/', /must be https/],
      ['https://user:pw@updates.example.com/', /must not carry credentials/],
      ['github:acme', /use github:<owner>\/<repo>/],
      ['github:ac me/x', /not a GitHub owner\/repository/],
      ['github:__proto__/constructor/x', /use github:<owner>\/<repo>/],
    ] as const) {
      expect(planDist(release, { CAPACITY_DESK_UPDATE_FEED: value }, 'linux').refused).toMatch(problem);
    }
    expect(planDist(parseDistArgs(['--publish', 'always']), { CAPACITY_DESK_UPDATE_FEED: 'https://u.example.com/', GH_TOKEN: 't' }, 'linux').refused).toMatch(/copying release\//);
  });
});

describe('one build folder for installers and their checks', () => {
  const root = resolve('/project');

  it('is dist/, and CD_DIST_DIR may only name it again', () => {
    expect(packedBuildDir(root)).toBe(join(root, 'dist'));
    expect(buildDirConflict({}, root)).toBeNull();
    expect(buildDirConflict({ CD_DIST_DIR: 'dist' }, root)).toBeNull();
    expect(buildDirConflict({ CD_DIST_DIR: join(root, 'dist') }, root)).toBeNull();
    expect(buildDirConflict({ CD_DIST_DIR: '/tmp/elsewhere' }, root)).toMatch(/CD_DIST_DIR=\/tmp\/elsewhere is set, but installers are made from dist\//);
  });

  it('npm run dist:check refuses to build anywhere else, before building anything', async () => {
    const started = Date.now();
    const check = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/dist-check.ts'], {
      cwd: ROOT,
      timeout: 30_000,
      env: { ...process.env, CD_DIST_DIR: join(tmpdir(), 'capacity-desk-elsewhere') },
    });
    await expect(check).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/dist:check: CD_DIST_DIR=.* is set, but installers are made from dist\//) });
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('the renderer build honours CD_DIST_DIR relative to the project, as the main-process build does', async () => {
    // As the helpers' recipe runs it: `CD_DIST_DIR=dist npm run build` (vite's root is renderer/).
    const before = process.env.CD_DIST_DIR;
    process.env.CD_DIST_DIR = 'dist';
    try {
      const config = (await import('../../vite.config.js')).default as { build?: { outDir?: string } };
      expect(config.build?.outDir).toBe(join(packedBuildDir(ROOT), 'renderer'));
    } finally {
      if (before === undefined) delete process.env.CD_DIST_DIR;
      else process.env.CD_DIST_DIR = before;
    }
  });

  it('the packaging checks pack that same folder', () => {
    expect(distDir()).toBe(packedBuildDir(ROOT));
  });
});
