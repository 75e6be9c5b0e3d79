import type { BuildOptions } from 'esbuild';
import { MAIN_EXTERNAL } from './bundle-rules.js';

/**
 * The node-side entry points and how each is bundled, for `npm run build` and
 * for `npm run dev` (which rebuilds them on change, with source maps).
 *
 * The Electron main process is one file holding every npm package it uses
 * (electron-updater, undici, zod...), so the packaged app never resolves an ESM
 * import from inside app.asar, a path Electron has broken in several releases;
 * only `electron` and the native modules (keytar) are loaded at run time, and
 * only they ship in node_modules. The sandboxed preload and the browser shim
 * are self-contained because they cannot load modules at run time. The browser
 * host runs under plain Node beside node_modules, so its packages stay external.
 */
export function nodeBundles(out: string, options: { readonly sourcemap: boolean }): BuildOptions[] {
  const common: BuildOptions = {
    bundle: true,
    // Linked maps beside the bundles in development; releases ship none.
    sourcemap: options.sourcemap ? 'linked' : false,
    legalComments: 'none',
    logLevel: 'warning',
  };
  return [
    {
      ...common,
      entryPoints: ['electron/main/main.ts'],
      outfile: `${out}/electron/main.mjs`,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      external: [...MAIN_EXTERNAL],
      // CommonJS packages in the bundle (electron-updater) require() Node's modules and electron;
      // an ES module has no require of its own, so the bundle gets one.
      banner: { js: "import { createRequire as __cdCreateRequire } from 'node:module'; const require = __cdCreateRequire(import.meta.url);" },
    },
    {
      ...common,
      entryPoints: ['electron/preload/preload.ts'],
      outfile: `${out}/electron/preload.cjs`,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      external: ['electron'],
    },
    {
      ...common,
      entryPoints: ['electron/browser-host/cli.ts'],
      outfile: `${out}/host/host.mjs`,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
    },
    // The list-page thread's script beside each bundle that starts it (replica/list-page-thread.ts reads it as text):
    // self-contained, zod and the contract inside, so it needs no package at run time.
    ...(['electron', 'host'] as const).map(
      (dir): BuildOptions => ({
        ...common,
        entryPoints: ['electron/services/replica/list-page-thread-main.ts'],
        outfile: `${out}/${dir}/list-page-thread.cjs`,
        platform: 'node',
        format: 'cjs',
        target: dir === 'electron' ? 'node22' : 'node20',
      }),
    ),
    {
      ...common,
      entryPoints: ['electron/browser-host/shim/api-shim.ts'],
      outfile: `${out}/host/api-shim.js`,
      platform: 'browser',
      format: 'iife',
      target: 'chrome130',
    },
  ];
}
