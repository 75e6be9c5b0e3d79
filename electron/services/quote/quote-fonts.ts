import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { QUOTE_FONT_FILES } from './quote-font-files.js';

/**
 * The quote's fonts: DejaVu Sans (the dejavu-fonts-ttf package, a free licence
 * that allows embedding), because PDF's standard Helvetica draws only Windows-1252,
 * and a customer named "Łódź Logistics" or "Северсталь" must read as written.
 * DejaVu covers Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic
 * letters; what it has no glyph for (CJK) is drawn with the OS's font
 * (system-fallback-font.ts), or written as "?" and said.
 */

export interface QuoteFontBytes {
  readonly regular: Uint8Array;
  readonly bold: Uint8Array;
}

let loaded: Promise<QuoteFontBytes> | null = null;

/** Read once per process: a quote is made while the person waits, and the files never change. */
export function quoteFontBytes(): Promise<QuoteFontBytes> {
  loaded ??= Promise.all([readFile(fontPath(QUOTE_FONT_FILES.regular)), readFile(fontPath(QUOTE_FONT_FILES.bold))])
    .then(([regular, bold]) => ({ regular, bold }))
    .catch((error: unknown) => {
      loaded = null;
      throw error;
    });
  return loaded;
}

/**
 * The main bundle carries its fonts beside it (scripts/lib/bundle-assets.ts; the
 * packaged app ships no npm package but the native modules, and Electron's fs
 * reads inside app.asar); code that runs beside node_modules (the browser host,
 * the tests, the sources) reads them from the package.
 */
function fontPath(packagePath: string): string {
  const besideBundle = fileURLToPath(new URL(`./fonts/${packagePath.slice(packagePath.lastIndexOf('/') + 1)}`, import.meta.url));
  return existsSync(besideBundle) ? besideBundle : createRequire(import.meta.url).resolve(packagePath);
}

let characters: Promise<ReadonlySet<number>> | null = null;

/** The characters DejaVu Sans (regular) has: whether a quote needs the OS's font too is known before it is drawn. */
export function embeddedCharacters(): Promise<ReadonlySet<number>> {
  characters ??= Promise.all([quoteFontBytes(), import('@pdf-lib/fontkit')]).then(
    ([bytes, fontkit]) => new Set(fontkit.default.create(Buffer.from(bytes.regular)).characterSet),
  );
  return characters;
}
