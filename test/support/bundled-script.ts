import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * A child script bundled once into one plain ESM file in `outDir`, so each of a
 * test's many child starts is a plain `node` start: `node --import tsx` compiles
 * the import graph at every start (the replica writer: 0.8 CPU-s to its first
 * line against 0.15 bundled, load 21). Returns the bundle's path.
 */
export async function bundleScript(entry: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${entry.replace(/[^A-Za-z0-9]+/g, '-')}.mjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
  return outfile;
}

/** The environment of a bundled child: the bundle lives in a temp folder, and the database module (native, loaded by name) is found through NODE_PATH. */
export function bundledScriptEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NODE_PATH: join(process.cwd(), 'node_modules') };
}
