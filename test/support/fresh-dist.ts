import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Playwright's global setup: the UI suites serve the built app from dist/
 * (CD_DIST_DIR), so a source file changed after the last build would be
 * tested as it was before the change. Say so and stop, before any test runs.
 */
const SOURCES = ['renderer', 'shared', 'electron', 'sandbox', 'vite.config.ts', 'svelte.config.js', join('scripts', 'build-node.ts')];
const BUILT = [join('renderer', 'index.html'), join('host', 'host.mjs'), join('host', 'api-shim.js')];

function newest(dir: string): { file: string; mtimeMs: number } | null {
  let best: { file: string; mtimeMs: number } | null = null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newest(path) : { file: path, mtimeMs: statSync(path).mtimeMs };
    if (found && (!best || found.mtimeMs > best.mtimeMs)) best = found;
  }
  return best;
}

export default function freshDist(): void {
  checkFreshDist('.', process.env.CD_DIST_DIR ?? 'dist');
}

/** Throws, naming the file, when a source under `root` is newer than the build in `dist` (relative to `root`). */
export function checkFreshDist(root: string, dist: string): void {
  const builtAt = Math.min(
    ...BUILT.map((file) => {
      try {
        return statSync(join(root, dist, file)).mtimeMs;
      } catch {
        throw new Error(`${join(dist, file)} is missing: build first (npm run -s build)`);
      }
    }),
  );
  for (const path of SOURCES) {
    const at = join(root, path);
    // The build's own configuration makes dist/ too.
    const source = statSync(at).isDirectory() ? newest(at) : { file: at, mtimeMs: statSync(at).mtimeMs };
    if (source && source.mtimeMs > builtAt) {
      throw new Error(`${dist}/ is older than ${relative(root, source.file)}: build first (npm run -s build), or the tests would run the old app`);
    }
  }
}
