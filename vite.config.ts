import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from './shared/security/csp.js';

/** Puts the app's CSP into the built page as well as in both hosts' headers. */
function contentSecurityPolicyMeta(): Plugin {
  return {
    name: 'capacity-desk-csp-meta',
    // In `npm run dev` the browser host sends the page's policy, with Vite's socket and nonce in it.
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
    ],
  };
}

// The renderer only: the main process, preload and browser host are bundled by scripts/build-node.ts.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [contentSecurityPolicyMeta(), svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
  build: {
    // CD_DIST_DIR is relative to the project, as in scripts/build-node.ts (not to `root`).
    outDir: resolve(fileURLToPath(new URL('.', import.meta.url)), process.env.CD_DIST_DIR ?? 'dist', 'renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Every module the entry imports statically in one file (issue 25): split by sharing, they were 25 files the
        // page fetched on six connections from a host busy starting (770 ms at load 23) before any could run.
        // The views, dialogs and the IPC contract stay chunks of their own (dynamic imports).
        codeSplitting: { groups: [{ name: 'app-start', tags: ['$initial'] }] },
      },
    },
  },
});
