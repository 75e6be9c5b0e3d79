import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const PackageJson = z.object({ name: z.literal('capacity-desk'), version: z.string().min(1) });

/**
 * The app's version for hosts that have no `app.getVersion()` (the browser
 * host): read from the project's package.json, found by walking up from this
 * module, which works from the sources and from the dist/ bundle alike.
 */
export function readPackageVersion(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const parsed = PackageJson.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (parsed.success) return parsed.data.version;
      } catch {
        // Not ours or not JSON: keep walking up.
      }
    }
    if (dirname(dir) === dir) return '0.0.0';
  }
}
