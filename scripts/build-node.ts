import { build, type BuildOptions } from 'esbuild';

/**
 * Bundles the node-side entry points. npm packages stay external (they ship in
 * node_modules, and keytar is native); the sandboxed preload and the browser
 * shim are self-contained because they cannot load modules at run time.
 */
const out = process.env.CD_DIST_DIR ?? 'dist';
const common: BuildOptions = {
  bundle: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['electron/main/main.ts'],
    outfile: `${out}/electron/main.mjs`,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['electron/preload/preload.ts'],
    outfile: `${out}/electron/preload.cjs`,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['electron'],
  }),
  build({
    ...common,
    entryPoints: ['electron/browser-host/cli.ts'],
    outfile: `${out}/host/host.mjs`,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['electron/browser-host/shim/api-shim.ts'],
    outfile: `${out}/host/api-shim.js`,
    platform: 'browser',
    format: 'iife',
    target: 'chrome130',
  }),
]);
