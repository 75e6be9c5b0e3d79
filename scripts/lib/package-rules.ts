/**
 * What must never ship inside the app: sources, tests, source maps, docs,
 * native build leftovers, the browser host, and project folders other than
 * the built output. Licence files stay: their terms ask for them. Paths are
 * '/'-rooted as app.asar lists them.
 */
export function offendingFiles(files: readonly string[]): string[] {
  return files.filter(
    (file) =>
      /\.(ts|mts|cts|tsx|map|c|cc|cpp|h|hpp|gyp|gypi|svelte)$/i.test(file) ||
      (/\.(md|markdown)$/i.test(file) && !isLicence(file)) ||
      /\/(test|tests|__tests__)\//.test(file) ||
      /^\/(electron|renderer|shared|sandbox|scripts|test|bench|docs|build|release|artifacts)(\/|$)/.test(file) ||
      file.startsWith('/dist/host'),
  );
}

/** What `electron .` needs inside the archive. */
export const REQUIRED_IN_ASAR = ['/package.json', '/dist/electron/main.mjs', '/dist/electron/preload.cjs', '/dist/renderer/index.html'] as const;

function isLicence(file: string): boolean {
  return /^licen[cs]e/i.test(file.slice(file.lastIndexOf('/') + 1));
}
