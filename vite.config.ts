import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The renderer only: the main process, preload and browser host are bundled by scripts/build-node.ts.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
  build: {
    outDir: `${process.env.CD_DIST_DIR ?? '../dist'}/renderer`,
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
});
