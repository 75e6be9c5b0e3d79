import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROOT } from './support/builder-config.js';

/** The parts of a GitHub Actions workflow these checks read. */
const Step = z.object({
  name: z.string(),
  if: z.string().optional(),
  run: z.string().optional(),
  uses: z.string().optional(),
  with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
type Step = z.infer<typeof Step>;
const Job = z.object({
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  'runs-on': z.string(),
  permissions: z.record(z.string(), z.string()).optional(),
  strategy: z.object({ matrix: z.object({ os: z.array(z.string()) }) }).optional(),
  env: z.record(z.string(), z.string()).optional(),
  steps: z.array(Step),
});
type Job = z.infer<typeof Job>;
const Workflow = z.object({
  name: z.string(),
  on: z.record(z.string(), z.unknown()),
  permissions: z.record(z.string(), z.string()),
  jobs: z.record(z.string(), Job),
});
type Workflow = z.infer<typeof Workflow>;

async function workflow(file: string): Promise<{ parsed: Workflow; text: string }> {
  const text = await readFile(join(ROOT, '.github', 'workflows', file), 'utf8');
  return { parsed: Workflow.parse(parse(text)), text };
}

const step = (job: Job, name: RegExp): Step => {
  const found = job.steps.find((s) => name.test(s.name));
  if (!found) throw new Error(`no step named ${name} (steps: ${job.steps.map((s) => s.name).join(' | ')})`);
  return found;
};

const MATRIX = ['ubuntu-latest', 'windows-latest', 'macos-latest'];

/** electron, @electron/get and @electron/rebuild declare Node >= 22.12. */
function expectNode22(job: Job): void {
  expect(step(job, /^Set up Node.js$/).with?.['node-version']).toBe(22);
}

/**
 * ubuntu-latest (24.04) restricts unprivileged user namespaces with AppArmor, so an Electron
 * started without Playwright's switches dies before its window opens; the step lifts the
 * restriction (keeping Chromium's sandbox on) before anything launches Electron.
 */
function expectSandboxAllowedBefore(job: Job, firstLaunch: string): void {
  const sandbox = step(job, /^Allow user namespaces for Chromium's sandbox \(Linux\)$/);
  expect(sandbox.if).toBe("runner.os == 'Linux'");
  expect(sandbox.run).toBe('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
  const at = (name: string) => job.steps.findIndex((s) => s.name.startsWith(name));
  expect(at(firstLaunch)).toBeGreaterThan(at(sandbox.name));
  for (const s of job.steps) expect(s.run ?? '').not.toMatch(/--no-sandbox/);
}

/** What every tested matrix job must do, in this order. */
function expectTestSteps(job: Job): void {
  expect(job.strategy?.matrix.os).toEqual(MATRIX);
  // A skipped Electron suite is a failure here (issue 30 item 4): an explicit variable, since CI=true is set everywhere.
  expect(job.env?.CAPACITY_DESK_REQUIRE_ELECTRON).toBe('1');
  expectNode22(job);
  expectSandboxAllowedBefore(job, 'Run the tests');
  const linux = step(job, /^Install system packages \(Linux\)$/);
  expect(linux.if).toBe("runner.os == 'Linux'");
  for (const pkg of ['libsecret-1-dev', 'gnome-keyring', 'dbus', 'xvfb']) expect(linux.run).toContain(pkg);
  expect(step(job, /^Install dependencies$/).run).toMatch(/^npm ci\b/);
  expect(step(job, /^Download the Electron binary$/).run).toContain('electron/install.js');
  expect(step(job, /^Run the tests$/).run).toBe('bash scripts/test.sh');
  expect(step(job, /^Build the test package/).run).toBe('npm run dist:test');
  const packaged = step(job, /^Electron tests on the packaged test build$/);
  expect(packaged.env?.CAPACITY_DESK_PACKAGED_DIR).toBe('release/test');
  expect(packaged.run).toMatch(/xvfb-run[^\n]*playwright test --project electron/);
  const order = ['Install system packages (Linux)', 'Install dependencies', 'Download the Electron binary', 'Run the tests', 'Build the test package', 'Electron tests on the packaged'].map((prefix) =>
    job.steps.findIndex((s) => s.name.startsWith(prefix)),
  );
  expect(order).toEqual([...order].sort((a, b) => a - b));
}

describe('release workflow', () => {
  let release: Workflow;
  let text: string;
  beforeAll(async () => {
    ({ parsed: release, text } = await workflow('release.yml'));
  });

  it('runs on version tags only', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
  });

  it('tests on Windows, macOS and Linux first, the _electron suite under Xvfb included', () => {
    expectTestSteps(release.jobs.test!);
    // scripts/test.sh runs the _electron suite under xvfb-run on Linux.
    expect(step(release.jobs.test!, /^Check the tag matches package.json$/).run).toContain('GITHUB_REF_NAME');
  });

  it('creates one draft release, then builds signed installers on each OS', () => {
    const draft = release.jobs['draft-release']!;
    expect(draft.needs).toBe('test');
    expect(step(draft, /^Create the draft release$/).run).toContain('--draft');
    const installers = release.jobs.installers!;
    expect(installers.needs).toBe('draft-release');
    expect(installers.strategy?.matrix.os).toEqual(MATRIX);
    expect(installers.permissions).toEqual({ contents: 'write' });
    expectNode22(installers);
    const build = step(installers, /^Build signed installers$/);
    expect(build.run).toBe('npm run dist');
    expect(build.env).toMatchObject({
      CAPACITY_DESK_REQUIRE_SIGNING: expect.stringContaining("'1'"),
      WIN_CSC_LINK: '${{ secrets.WIN_CSC_LINK }}',
      AZURE_TRUSTED_SIGNING_ENDPOINT: '${{ secrets.AZURE_TRUSTED_SIGNING_ENDPOINT }}',
      APPLE_API_KEY_ID: '${{ secrets.APPLE_API_KEY_ID }}',
    });
    expect(build.env?.CSC_LINK).toContain('secrets.MAC_CSC_LINK');
    // The build cannot publish: the token is only given to the upload that follows the checks.
    expect(build.env?.GH_TOKEN).toBeUndefined();
    expect(step(installers, /^Check the packaged release/).run).toBe('npm run dist:check -- --built release:release');
    expect(text).not.toMatch(/pull_request_target/);
  });

  it('smoke-launches every installer on the three OSes, and publishes only after every check passed', () => {
    const installers = release.jobs.installers!;
    expectSandboxAllowedBefore(installers, 'Smoke launch the installers');
    const smoke = step(installers, /^Smoke launch the installers$/);
    expect(smoke.if).toBeUndefined();
    expect(smoke.run).toMatch(/xvfb-run[^\n]*npm run -s smoke -- release/);
    expect(smoke.run).toMatch(/else\s+npm run -s smoke -- release/);
    const publish = step(installers, /^Publish to the draft release$/);
    expect(publish.if).toBeUndefined();
    expect(publish.env).toEqual({ GH_TOKEN: '${{ secrets.GITHUB_TOKEN }}' });
    expect(publish.run).toMatch(/gh release upload "\$GITHUB_REF_NAME"/);
    for (const kind of ['exe', 'dmg', 'zip', 'AppImage', 'deb', 'rpm', 'blockmap']) expect(publish.run).toContain(`release/*.${kind}`);
    expect(publish.run).toContain('release/latest*.yml');
    const at = (name: string) => installers.steps.findIndex((s) => s.name === name);
    const order = ['Build signed installers', 'Check the packaged release (fuses locked, file list, update feed)', 'Smoke launch the installers', 'Publish to the draft release'].map(at);
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Nothing before the checks holds the token that can publish.
    const tokenSteps = installers.steps.filter((s) => JSON.stringify(s.env ?? {}).includes('GITHUB_TOKEN')).map((s) => s.name);
    expect(tokenSteps).toEqual(['Publish to the draft release']);
  });

  it('smoke-launches on Ubuntu as shipped (user namespaces restricted) before lifting it: deb sandboxed, AppImage known unsandboxed (issue 30 item 2)', () => {
    const installers = release.jobs.installers!;
    const restricted = step(installers, /^Smoke launch with user namespaces restricted \(Linux\)$/);
    expect(restricted.if).toBe("runner.os == 'Linux'");
    expect(restricted.run).toContain('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=1');
    expect(restricted.run).toMatch(/xvfb-run[^\n]*npm run -s smoke -- release --only appimage,deb --userns-restricted/);
    const at = (name: RegExp) => installers.steps.findIndex((s) => name.test(s.name));
    expect(at(/^Check the packaged release/)).toBeLessThan(at(/^Smoke launch with user namespaces restricted/));
    expect(at(/^Smoke launch with user namespaces restricted/)).toBeLessThan(at(/^Allow user namespaces for Chromium's sandbox/));
  });

  it('launches the rpm installed with dnf on Fedora, before publishing (issue 30 item 11)', () => {
    const installers = release.jobs.installers!;
    const rpm = step(installers, /^Smoke launch the rpm on Fedora \(Linux\)$/);
    expect(rpm.if).toBe("runner.os == 'Linux'");
    expect(rpm.run).toMatch(/docker run [^\n]*fedora:/);
    expect(rpm.run).toContain('--only rpm');
    // Chromium refuses root with its sandbox on: the app runs as a plain user.
    expect(rpm.run).toMatch(/su tester -c/);
    const at = (name: RegExp) => installers.steps.findIndex((s) => name.test(s.name));
    expect(at(/^Smoke launch the rpm/)).toBeLessThan(at(/^Publish to the draft release$/));
  });

  it('requires the keychain round trip and, on Windows, Authenticode Valid in the smoke launch (issue 30 items 5 and 9)', () => {
    const installers = release.jobs.installers!;
    const smoke = step(installers, /^Smoke launch the installers$/);
    expect(smoke.env).toMatchObject({ CAPACITY_DESK_SMOKE_KEYCHAIN: 'required', CAPACITY_DESK_REQUIRE_SIGNING: expect.stringContaining("'1'") });
    expect(smoke.run).toMatch(/with-keychain\.sh xvfb-run[^\n]*npm run -s smoke -- release/);
    expect(step(installers, /^Install system packages \(Linux\)$/).run).toMatch(/gnome-keyring dbus/);
  });

  it('names the update feed at release time, for the build and for the check of what was built (issue 30 item 10)', () => {
    const installers = release.jobs.installers!;
    const feed = "${{ vars.CAPACITY_DESK_UPDATE_FEED || format('github:{0}', github.repository) }}";
    expect(step(installers, /^Build signed installers$/).env?.CAPACITY_DESK_UPDATE_FEED).toBe(feed);
    expect(step(installers, /^Check the packaged release/).env?.CAPACITY_DESK_UPDATE_FEED).toBe(feed);
  });

  it('gives write access only to the jobs that publish', () => {
    expect(release.permissions).toEqual({ contents: 'read' });
    expect(release.jobs.test!.permissions).toBeUndefined();
  });

  it('documents every secret it uses in docs/release.md', async () => {
    const docs = await readFile(join(ROOT, 'docs', 'release.md'), 'utf8');
    const secrets = [...new Set([...text.matchAll(/secrets\.([A-Z0-9_]+)/g)].map((match) => match[1]!))];
    expect(secrets.length).toBeGreaterThan(10);
    expect(secrets.filter((name) => !docs.includes(`\`${name}\``))).toEqual([]);
  });

  it('passes every variable scripts/dist-plan.ts reads', async () => {
    const plan = await readFile(join(ROOT, 'scripts', 'lib', 'dist-plan.ts'), 'utf8');
    const publish = step(release.jobs.installers!, /^Build signed installers$/);
    const read = [...new Set([...plan.matchAll(/'((?:AZURE|APPLE|WIN_CSC|CSC)_[A-Z_]+)'/g)].map((match) => match[1]!))];
    // APPLE_API_KEY is a file path written by the step before; the Apple ID route is an alternative documented in docs/release.md.
    const provided = new Set([...Object.keys(publish.env ?? {}), 'APPLE_API_KEY', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID', 'CSC_NAME']);
    expect(read.filter((name) => !provided.has(name))).toEqual([]);
  });
});

describe('CI workflow', () => {
  it('tests every push and pull request on the three OSes, with no secrets', async () => {
    const { parsed: ci, text } = await workflow('ci.yml');
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expectTestSteps(ci.jobs.test!);
    expect(step(ci.jobs.test!, /^Check the packaged test build/).run).toBe('npm run dist:check -- --built release/test:test');
    expect(text).not.toMatch(/secrets\./);
    expect(ci.permissions).toEqual({ contents: 'read' });
  });
});
