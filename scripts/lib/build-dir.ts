import { resolve } from 'node:path';

/**
 * The one build folder installers are made from: electron-builder's `files`
 * name dist/, so `npm run dist` and every packaging check (`npm run
 * dist:check`, test/packaging) build into and pack this folder and no other.
 * CD_DIST_DIR (builds for parallel UI work) may only name it again.
 */
export const PACKED_BUILD_DIR = 'dist';

export function packedBuildDir(root: string): string {
  return resolve(root, PACKED_BUILD_DIR);
}

/** Why this environment cannot make or check installers, or null when it can. */
export function buildDirConflict(env: Readonly<Record<string, string | undefined>>, root: string): string | null {
  const requested = env.CD_DIST_DIR;
  if (!requested || resolve(root, requested) === packedBuildDir(root)) return null;
  return `CD_DIST_DIR=${requested} is set, but installers are made from ${PACKED_BUILD_DIR}/ (electron-builder's files), so that is where this builds and what it checks. Unset CD_DIST_DIR and run again.`;
}
