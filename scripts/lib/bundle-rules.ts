/**
 * Native modules cannot be bundled: they are loaded from node_modules at run
 * time (unpacked beside app.asar, rebuilt for Electron). Every other package
 * the main process uses is bundled into dist/electron/main.mjs.
 * test/packaging checks this list against the native modules installed.
 */
export const NATIVE_MODULES = ['keytar', 'better-sqlite3-multiple-ciphers'] as const;

/** What the main bundle may load at run time besides Node's own modules. */
export const MAIN_EXTERNAL = ['electron', ...NATIVE_MODULES] as const;
