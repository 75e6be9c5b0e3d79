/**
 * The files of each lazily imported chunk, as the build wrote them into the page (`lazyChunkFiles` in
 * vite.config.ts): the chunk, what it imports and their styles, by the chunk's name. Empty where the page has no
 * such list (the dev server, a unit test): a view is then simply imported.
 */
function readChunkFiles(): ReadonlyMap<string, readonly string[]> {
  const text = typeof document === 'undefined' ? null : document.getElementById('lazy-chunk-files')?.textContent;
  if (!text) return new Map();
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object') return new Map();
    return new Map(
      Object.entries(parsed).filter((entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((file) => typeof file === 'string')),
    );
  } catch {
    return new Map();
  }
}

let chunkFiles: ReadonlyMap<string, readonly string[]> | undefined;

/** The files `chunk` needs beyond what the page started with, as addresses relative to the page. */
export function filesOfChunk(chunk: string): readonly string[] {
  chunkFiles ??= readChunkFiles();
  return chunkFiles.get(chunk) ?? [];
}

/** Each file asked for by `fetchFileOnce`, until it has arrived or failed. */
const fetching = new Map<string, Promise<void>>();

/**
 * Fetches one file into the page as Vite's loader would (a module preload or a style sheet, same attributes, so the
 * loader finds it there and does not ask again), at low priority, and settles once it has arrived or failed. Asked
 * again meanwhile, the same wait: a second preload never adds a request beside the first.
 */
export function fetchFileOnce(file: string): Promise<void> {
  const href = new URL(file, document.baseURI).href;
  const isStyle = href.endsWith('.css');
  const asked = fetching.get(href);
  if (asked) return asked;
  for (const link of document.getElementsByTagName('link')) {
    // Put there by Vite's loader (a view opened before its preload) or by an earlier preload.
    if (link.href === href && (!isStyle || link.rel === 'stylesheet')) return Promise.resolve();
  }
  const link = document.createElement('link');
  link.rel = isStyle ? 'stylesheet' : 'modulepreload';
  if (!isStyle) link.as = 'script';
  link.crossOrigin = '';
  link.fetchPriority = 'low';
  link.href = href;
  const arrived = new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    // Taken out again, so Vite's loader asks for it when the view is opened and reports a failure there.
    link.addEventListener(
      'error',
      () => {
        link.remove();
        resolve();
      },
      { once: true },
    );
  }).finally(() => fetching.delete(href));
  fetching.set(href, arrived);
  document.head.appendChild(link);
  return arrived;
}

/**
 * Files a preload has in flight at once. The browser host's page has six connections to the host, one held by the
 * event stream: three for the preload leave two for the person's calls. One at a time left the Renewals' chunk
 * still on its way at a click made soon after the first screen (at load 50), with the whole view's files to come.
 */
export const FILES_AT_ONCE = 3;

/** Fetches `files` (`fetchFileOnce`), FILES_AT_ONCE at a time, until `stop` says the rest is no longer wanted. */
export async function fetchFilesFewAtOnce(files: readonly string[], stop: () => boolean): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length && !stop()) await fetchFileOnce(files[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, lane));
}
