import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { QUOTE_FONT_FILES } from '../../electron/services/quote/quote-font-files.js';

/**
 * Files the main bundle reads at run time, copied beside it: the quote's fonts
 * and their licence (the packaged app ships dist/electron/** and no npm package
 * but the native modules, so they cannot be read from node_modules there).
 */
export async function copyBundleAssets(out: string): Promise<void> {
  const resolve = createRequire(import.meta.url).resolve;
  const dir = join(out, 'electron', 'fonts');
  await mkdir(dir, { recursive: true });
  const files = Object.values(QUOTE_FONT_FILES);
  const licence = join(dirname(dirname(resolve(QUOTE_FONT_FILES.regular))), 'LICENSE');
  await Promise.all([
    ...files.map((file) => copyFile(resolve(file), join(dir, file.slice(file.lastIndexOf('/') + 1)))),
    copyFile(licence, join(dir, 'LICENSE')),
  ]);
}
