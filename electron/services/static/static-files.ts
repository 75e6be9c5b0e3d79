import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { ownEntry } from '../../../shared/records.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * Reads a file of the built renderer for a URL path. Anything that would leave
 * the root (.., encoded separators, absolute paths) or is not a known type is
 * refused with null.
 */
export async function readStaticFile(rootDir: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const root = normalize(rootDir + sep);
  const full = normalize(join(root, relative));
  if (!full.startsWith(root)) return null;
  const contentType = ownEntry(CONTENT_TYPES, extname(full).toLowerCase());
  if (!contentType) return null;
  try {
    return { body: await readFile(full), contentType };
  } catch {
    return null;
  }
}

/**
 * The built renderer's files, each read from the disk once and then answered
 * from memory: they do not change while the app runs, and at a launch the
 * page's code is asked while the main process is busiest (a read from the
 * disk is several turns of its event loop, each waiting behind that work).
 * Only files that exist are kept, so the memory is bounded by the build's size.
 */
export class KeptStaticFiles {
  readonly #rootDir: string;
  readonly #kept = new Map<string, Promise<StaticFile | null>>();

  constructor(rootDir: string) {
    this.#rootDir = rootDir;
  }

  read(urlPath: string): Promise<StaticFile | null> {
    const kept = this.#kept.get(urlPath);
    if (kept) return kept;
    const reading = readStaticFile(this.#rootDir, urlPath);
    this.#kept.set(urlPath, reading);
    void reading.then((file) => {
      if (!file) this.#kept.delete(urlPath);
    });
    return reading;
  }
}
