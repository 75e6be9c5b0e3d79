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
export const AppUpdateConfig = z.object({
  provider: z.literal('github', { error: (issue) => (issue.input === undefined ? 'no provider: set "repository" in package.json (or publish.owner/repo)' : `provider is ${String(issue.input)}, expected github`) }),
  owner: z.string().min(1, { error: 'no GitHub owner' }),
  repo: z.string().min(1, { error: 'no GitHub repository' }),
  updaterCacheDirName: z.string().optional(),
});
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

/** Problems with the app's own feed file, in plain words (empty when it is sound). */
export function appUpdateProblems(file: string): string[] {
  if (!existsSync(file)) return ['no app-update.yml (electron-updater\'s feed)'];
  const parsed = AppUpdateConfig.safeParse(parse(readFileSync(file, 'utf8')) ?? {});
  return parsed.success ? [] : [`app-update.yml: ${describe(parsed.error)}`];
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
