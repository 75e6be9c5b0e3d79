import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
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

/**
 * Writes into the built page, for each lazily imported chunk (by its name, e.g. `RenewalWorklistView`), the files it
 * needs that the page has not loaded at its start: the chunk, what it imports and their styles. The renderer's
 * preload fetches them a few at a time (`renderer/views/chunk-files.ts`, issue 28); Vite's own loader asks them all at
 * once, which held every connection the browser host's page has.
 */
function lazyChunkFiles(): Plugin {
  return {
    name: 'capacity-desk-lazy-chunk-files',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const atStart = new Set<string>();
        const collect = (fileName: string, into: Set<string>) => {
          const chunk = byFile.get(fileName);
          if (!chunk || into.has(fileName) || atStart.has(fileName)) return;
          into.add(fileName);
          for (const imported of chunk.imports) collect(imported, into);
        };
        for (const entry of chunks.filter((chunk) => chunk.isEntry)) collect(entry.fileName, atStart);
        const files: Record<string, string[]> = {};
        for (const chunk of chunks.filter((chunk) => chunk.isDynamicEntry && !chunk.isEntry)) {
          const scripts = new Set<string>();
          collect(chunk.fileName, scripts);
          const styles = [...scripts].flatMap((fileName) => [...(byFile.get(fileName)?.viteMetadata?.importedCss ?? [])]);
          // What a chunk imports first: each file is then in before the one that needs it.
          files[chunk.name] = [...[...scripts].reverse(), ...styles];
        }
        // Read by the page as data (CSP: a JSON block is never run); `<` escaped so no text can end the element.
        const json = JSON.stringify(files).replaceAll('<', '\\u003c');
        return [{ tag: 'script', attrs: { type: 'application/json', id: 'lazy-chunk-files' }, children: json, injectTo: 'head' }];
      },
    },
  };
}

// The renderer only: the main process, preload and browser host are bundled by scripts/build-node.ts.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [contentSecurityPolicyMeta(), lazyChunkFiles(), svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
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
