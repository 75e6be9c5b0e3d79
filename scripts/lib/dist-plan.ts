import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseUpdateFeed } from './update-feed.js';

/**
 * What `npm run dist` builds and how it signs, decided from the command line
 * and the environment only (repository secrets in CI, nothing in the repo).
 * Pure, so test/packaging can prove each branch without building anything.
 */

export const TEST_CONFIG = 'electron-builder.test.yml';

const DistArgs = z.object({
  test: z.boolean(),
  dir: z.boolean(),
  publish: z.enum(['never', 'always']),
});
export type DistArgs = z.infer<typeof DistArgs>;

export function parseDistArgs(argv: readonly string[]): DistArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      test: { type: 'boolean', default: false },
      dir: { type: 'boolean', default: false },
      publish: { type: 'string', default: 'never' },
    },
    strict: true,
    allowPositionals: false,
  });
  return DistArgs.parse(values);
}

type Env = Readonly<Record<string, string | undefined>>;

/** The overrides electron-builder merges over electron-builder.yml. */
export interface ConfigOverrides {
  win?: { azureSignOptions: { endpoint: string; codeSigningAccountName: string; certificateProfileName: string; publisherName: string } };
  mac?: { identity?: null; notarize?: false };
  publish?: { provider: 'github'; owner: string; repo: string; releaseType: 'draft' } | { provider: 'generic'; url: string } | null;
}

export interface DistPlan {
  /** A config file path (the test build) or overrides of electron-builder.yml. */
  readonly config: string | ConfigOverrides;
  readonly dir: boolean;
  readonly publish: 'never' | 'always';
  /** How the build is signed, in plain words, for the log. */
  readonly signing: string[];
  /** Secrets that a signed release needs and that are not set. */
  readonly missing: string[];
  /** Why this build must not be made at all (no update feed named); null when it may. */
  readonly refused: string | null;
  /** Where installed copies will look for updates, in plain words, for the log. */
  readonly feed: string;
}

const AZURE = ['AZURE_TRUSTED_SIGNING_ENDPOINT', 'AZURE_TRUSTED_SIGNING_ACCOUNT', 'AZURE_TRUSTED_SIGNING_PROFILE', 'AZURE_TRUSTED_SIGNING_PUBLISHER'] as const;
/** Read by the TrustedSigning module (Azure EnvironmentCredential), not by us. */
const AZURE_AUTH = ['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET'] as const;
const APPLE_API = ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'] as const;
const APPLE_ID = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'] as const;

const has = (env: Env, name: string): boolean => Boolean(env[name]?.trim());
const unset = (env: Env, names: readonly string[]): string[] => names.filter((name) => !has(env, name));

export function planDist(args: DistArgs, env: Env, platform: NodeJS.Platform): DistPlan {
  if (args.test) {
    // The test build is never signed or published: it only has to start under Playwright.
    if (args.publish === 'always') throw new Error('The test build is never published.');
    return { config: TEST_CONFIG, dir: true, publish: 'never', signing: ['test build: unsigned, inspector fuse on'], missing: [], refused: null, feed: 'none (test build)' };
  }
  const overrides: ConfigOverrides = {};
  const signing: string[] = [];
  const missing: string[] = [];

  if (platform === 'win32') {
    if (has(env, AZURE[0])) {
      missing.push(...unset(env, [...AZURE, ...AZURE_AUTH]));
      overrides.win = {
        azureSignOptions: {
          endpoint: env.AZURE_TRUSTED_SIGNING_ENDPOINT ?? '',
          codeSigningAccountName: env.AZURE_TRUSTED_SIGNING_ACCOUNT ?? '',
          certificateProfileName: env.AZURE_TRUSTED_SIGNING_PROFILE ?? '',
          publisherName: env.AZURE_TRUSTED_SIGNING_PUBLISHER ?? '',
        },
      };
      signing.push('Windows: Azure Trusted Signing');
    } else if (has(env, 'WIN_CSC_LINK') || has(env, 'CSC_LINK')) {
      if (!has(env, 'WIN_CSC_KEY_PASSWORD') && !has(env, 'CSC_KEY_PASSWORD')) missing.push('WIN_CSC_KEY_PASSWORD');
      signing.push('Windows: code-signing certificate (WIN_CSC_LINK)');
    } else {
      missing.push('AZURE_TRUSTED_SIGNING_* or WIN_CSC_LINK');
      signing.push('Windows: UNSIGNED (no Azure Trusted Signing or certificate in the environment)');
    }
  }

  if (platform === 'darwin') {
    const identity = has(env, 'CSC_LINK') || has(env, 'CSC_NAME');
    const notarize = unset(env, APPLE_API).length === 0 || unset(env, APPLE_ID).length === 0;
    if (!identity) {
      missing.push('CSC_LINK', 'CSC_KEY_PASSWORD');
      overrides.mac = { identity: null, notarize: false };
      signing.push('macOS: UNSIGNED and not notarised (no Developer ID certificate in CSC_LINK)');
    } else if (!notarize) {
      missing.push('APPLE_API_KEY, APPLE_API_KEY_ID, APPLE_API_ISSUER (or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID)');
      overrides.mac = { notarize: false };
      signing.push('macOS: signed, NOT notarised (no App Store Connect credentials)');
    } else {
      if (!has(env, 'CSC_KEY_PASSWORD') && has(env, 'CSC_LINK')) missing.push('CSC_KEY_PASSWORD');
      signing.push('macOS: signed (Developer ID) and notarised');
    }
  }

  if (platform === 'linux') signing.push('Linux: AppImage, deb and rpm are not code-signed; the release page lists SHA-512 checksums in latest-linux.yml');

  // The feed every installed copy checks is named at release time, never taken from package.json.
  const feed = parseUpdateFeed(env.CAPACITY_DESK_UPDATE_FEED);
  let refused: string | null = null;
  let feedText: string;
  if ('problem' in feed) {
    refused = feed.problem;
    feedText = 'NOT SET';
  } else if (feed.provider === 'github') {
    overrides.publish = { provider: 'github', owner: feed.owner, repo: feed.repo, releaseType: 'draft' };
    feedText = `GitHub releases of ${feed.owner}/${feed.repo}`;
  } else if (feed.provider === 'generic') {
    overrides.publish = { provider: 'generic', url: feed.url };
    feedText = `generic HTTPS feed ${feed.url}`;
    if (args.publish === 'always') refused = 'a generic feed is published by copying release/ to its server, not by --publish always';
  } else {
    overrides.publish = null;
    feedText = 'none: this build never updates itself';
  }
  if (args.publish === 'always' && !has(env, 'GH_TOKEN') && !has(env, 'GITHUB_TOKEN')) missing.push('GH_TOKEN');

  return { config: overrides, dir: args.dir, publish: args.publish, signing, missing, refused, feed: feedText };
}
