import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

/**
 * The update feed as electron-updater reads it. app-update.yml (inside the
 * app) must name where updates come from: without a provider the installed
 * app can never update. latest*.yml (beside the installers, uploaded to the
 * release) must describe this version's files with their SHA-512 sums.
 */
/**
 * The update feed is a release-time setting, CAPACITY_DESK_UPDATE_FEED, never
 * read from package.json (whose placeholder a local build used to bake in):
 * `github:<owner>/<repo>` (the releases of that repository; a private one
 * needs a token in every installed copy, so use the generic route instead),
 * `https://<server>/<path>/` (a generic HTTPS feed: any server holding the
 * installers and latest*.yml), or `none` (a build that never updates itself).
 */
export const UPDATE_FEED_ENV = 'CAPACITY_DESK_UPDATE_FEED';

export type UpdateFeed =
  | { readonly provider: 'github'; readonly owner: string; readonly repo: string }
  | { readonly provider: 'generic'; readonly url: string }
  | { readonly provider: 'none' };

const NAME = /^[A-Za-z0-9_.-]+$/;

/** The setting, or why it is not one. */
export function parseUpdateFeed(text: string | undefined): UpdateFeed | { readonly problem: string } {
  const value = text?.trim() ?? '';
  if (value === '') return { problem: `${UPDATE_FEED_ENV} is not set: name the update feed (github:<owner>/<repo>, https://<server>/<path>/, or none); see docs/release.md` };
  if (value === 'none') return { provider: 'none' };
  const github = /^github:([^/]+)\/([^/]+)$/.exec(value);
  if (github) {
    const [owner, repo] = [github[1]!, github[2]!];
    if (!NAME.test(owner) || !NAME.test(repo)) return { problem: `${UPDATE_FEED_ENV}=${value}: not a GitHub owner/repository` };
    return { provider: 'github', owner, repo };
  }
  if (value.startsWith('github:')) return { problem: `${UPDATE_FEED_ENV}=${value}: use github:<owner>/<repo>` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${UPDATE_FEED_ENV}=${value}: use github:<owner>/<repo>, an https:// address, or none` };
  }
  if (url.protocol !== 'https:') return { problem: `${UPDATE_FEED_ENV}=${value}: a generic feed must be https (installed copies run what it serves)` };
  if (url.username || url.password) return { problem: `${UPDATE_FEED_ENV}: a generic feed address must not carry credentials (every installed copy would hold them)` };
  return { provider: 'generic', url: url.toString() };
}

const PublisherName = z.array(z.string().min(1)).min(1).optional();
export const AppUpdateConfig = z.discriminatedUnion(
  'provider',
  [
    z.object({ provider: z.literal('github'), owner: z.string().min(1, { error: 'no GitHub owner' }), repo: z.string().min(1, { error: 'no GitHub repository' }), publisherName: PublisherName, updaterCacheDirName: z.string().optional() }),
    z.object({ provider: z.literal('generic'), url: z.string().min(1), publisherName: PublisherName, updaterCacheDirName: z.string().optional() }),
  ],
  {
    error: (issue) => {
      const provider: unknown = typeof issue.input === 'object' && issue.input !== null ? (issue.input as { provider?: unknown }).provider : undefined;
      return provider === undefined ? `no provider: the build had no update feed (${UPDATE_FEED_ENV})` : `provider is ${String(provider)}, expected github or generic`;
    },
  },
);
export type AppUpdateConfig = z.infer<typeof AppUpdateConfig>;

const Sha512 = z.string().regex(/^[A-Za-z0-9+/]{86}==$/, { error: 'not a base64 SHA-512' });
export const UpdateInfo = z.object({
  version: z.string().min(1),
  // size is written with a blockmap (NSIS, AppImage, the macOS zip); electron-updater does not require it.
  files: z.array(z.object({ url: z.string().min(1), sha512: Sha512, size: z.number().int().positive().optional() })).min(1),
  path: z.string().min(1),
  sha512: Sha512,
  releaseDate: z.string().min(1),
});

const describe = (error: z.ZodError): string => error.issues.map((issue) => `${issue.path.join('.') || 'feed'}: ${issue.message}`).join('; ');

export interface AppUpdateExpectations {
  /**
   * Windows: electron-updater checks an update's Authenticode signature only
   * against publisherName; without it any signed installer would be run.
   */
  readonly windows?: boolean;
  /** The feed the build was asked for (CAPACITY_DESK_UPDATE_FEED), when known. */
  readonly feed?: UpdateFeed;
}

/** Problems with the app's own feed file, in plain words (empty when it is sound). */
export function appUpdateProblems(file: string, expect: AppUpdateExpectations = {}): string[] {
  if (expect.feed?.provider === 'none') return existsSync(file) ? [`app-update.yml exists, but ${UPDATE_FEED_ENV}=none`] : [];
  if (!existsSync(file)) return ['no app-update.yml (electron-updater\'s feed)'];
  const parsed = AppUpdateConfig.safeParse(parse(readFileSync(file, 'utf8')) ?? {});
  if (!parsed.success) return [`app-update.yml: ${describe(parsed.error)}`];
  const problems: string[] = [];
  const config = parsed.data;
  if (expect.windows && !config.publisherName) problems.push('app-update.yml: no publisherName, so Windows updates would be installed without checking who signed them');
  const wanted = expect.feed;
  if (wanted && (wanted.provider !== config.provider || (wanted.provider === 'github' && config.provider === 'github' && (wanted.owner !== config.owner || wanted.repo !== config.repo)) || (wanted.provider === 'generic' && config.provider === 'generic' && wanted.url !== config.url))) {
    problems.push(`app-update.yml names ${feedText(config)}, but the build was asked for ${feedText(wanted)}`);
  }
  return problems;
}

function feedText(feed: UpdateFeed | AppUpdateConfig): string {
  return feed.provider === 'github' ? `github:${feed.owner}/${feed.repo}` : feed.provider === 'generic' ? feed.url : 'none';
}

/** Problems with the latest*.yml files in an output folder, for this version. */
export function releaseFeedProblems(outputDir: string, version: string): string[] {
  const problems: string[] = [];
  for (const name of readdirSync(outputDir).filter((file) => /^latest(-[a-z0-9]+)?\.yml$/.test(file))) {
    const parsed = UpdateInfo.safeParse(parse(readFileSync(join(outputDir, name), 'utf8')) ?? {});
    if (!parsed.success) problems.push(`${name}: ${describe(parsed.error)}`);
    else {
      if (parsed.data.version !== version) problems.push(`${name}: version ${parsed.data.version}, but package.json says ${version}`);
      for (const file of parsed.data.files) if (!existsSync(join(outputDir, file.url))) problems.push(`${name}: lists ${file.url}, which is not in ${outputDir}`);
    }
  }
  return problems;
}
