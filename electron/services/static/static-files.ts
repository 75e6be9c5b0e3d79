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

/** Where a URL path's file is inside the root, and its type; null when it would leave the root or is no known type. */
function resolveStaticPath(rootDir: string, urlPath: string): { readonly full: string; readonly contentType: string } | null {
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
  return contentType ? { full, contentType } : null;
}

async function readResolved(found: { readonly full: string; readonly contentType: string }): Promise<StaticFile | null> {
  try {
    return { body: await readFile(found.full), contentType: found.contentType };
  } catch {
    return null;
  }
}

/**
 * Reads a file of the built renderer for a URL path. Anything that would leave
 * the root (.., encoded separators, absolute paths) or is not a known type is
 * refused with null.
 */
export async function readStaticFile(rootDir: string, urlPath: string): Promise<StaticFile | null> {
  const found = resolveStaticPath(rootDir, urlPath);
  return found ? readResolved(found) : null;
}

/**
 * The built renderer's files, each read from the disk once and then answered
 * from memory: they do not change while the app runs, and at a launch the
 * page's code is asked while the main process is busiest (a read from the
 * disk is several turns of its event loop, each waiting behind that work).
 * Kept by the file they resolve to, never by the URL's spelling (`//a.js`,
 * `%61.js` and `/a.js` are one entry), and only files that exist: the memory
 * is bounded by the build's size.
 */
export class KeptStaticFiles {
  readonly #rootDir: string;
  readonly #kept = new Map<string, Promise<StaticFile | null>>();

  constructor(rootDir: string) {
    this.#rootDir = rootDir;
  }

  read(urlPath: string): Promise<StaticFile | null> {
    const found = resolveStaticPath(this.#rootDir, urlPath);
    if (!found) return Promise.resolve(null);
    const kept = this.#kept.get(found.full);
    if (kept) return kept;
    const reading = readResolved(found);
    this.#kept.set(found.full, reading);
    void reading.then((file) => {
      if (!file) this.#kept.delete(found.full);
    });
    return reading;
  }
}
