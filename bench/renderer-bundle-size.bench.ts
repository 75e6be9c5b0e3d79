import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Figure } from './figure.js';

const RENDERER_DIR = 'dist/renderer';
const BUDGET_KB = 100;

/**
 * Gzipped size of the JavaScript the renderer loads before first paint: the
 * entry script and every module it preloads (lazy chunks are not counted).
 */
export default async function rendererBundleSize(): Promise<Figure[]> {
  const html = await readFile(join(RENDERER_DIR, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map(
    (match) => match[1] as string,
  );
  if (scripts.length === 0) throw new Error('no script found in dist/renderer/index.html: run npm run build');
  let bytes = 0;
  for (const src of new Set(scripts)) bytes += gzipSync(await readFile(join(RENDERER_DIR, src))).length;
  const kb = bytes / 1024;
  return [
    {
      name: 'renderer initial JS (gzip)',
      value: Math.round(kb * 10) / 10,
      unit: 'KB',
      budget: `<= ${BUDGET_KB} KB`,
      withinBudget: kb <= BUDGET_KB,
    },
  ];
}
