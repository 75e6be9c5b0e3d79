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
export const REQUIRED_IN_ASAR = [
  '/package.json',
  '/dist/electron/main.mjs',
  '/dist/electron/preload.cjs',
  '/dist/renderer/index.html',
  // The quote's fonts and their licence, read beside the main bundle (electron/services/quote/quote-fonts.ts).
  '/dist/electron/fonts/DejaVuSans.ttf',
  '/dist/electron/fonts/DejaVuSans-Bold.ttf',
  '/dist/electron/fonts/LICENSE',
] as const;

/**
 * The native modules' binaries, unpacked beside app.asar (Electron cannot load
 * a .node file from inside the archive). Each is checked in a packaged app:
 * keytar (the keychain) and better-sqlite3 (the replica); a missing or
 * one-architecture binary fails dist:check rather than a customer's start.
 */
export const NATIVE_BINARIES = ['node_modules/keytar/build/Release/keytar.node', 'node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node'] as const;

/** What `lipo -archs` says of a binary in the universal macOS app: it must carry both slices. */
export function universalArchProblem(binary: string, lipoArchs: string): string | null {
  const archs = lipoArchs.trim().split(/\s+/).filter(Boolean);
  const lacking = ['x86_64', 'arm64'].filter((arch) => !archs.includes(arch));
  return lacking.length === 0 ? null : `${binary} is not universal (lipo -archs: ${archs.join(' ') || 'nothing'}; lacks ${lacking.join(', ')})`;
}

function isLicence(file: string): boolean {
  return /^licen[cs]e/i.test(file.slice(file.lastIndexOf('/') + 1));
}
