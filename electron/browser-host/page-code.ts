/**
 * When the app's page has been served the code it starts with (its module
 * script, the modules it preloads and its style sheets): the window's own
 * loading is then over, so work the main process does only to be ready for
 * the window's first ask (the overview counted at a launch) can begin without
 * holding up the page's files. Said once, for the first page; a page that
 * calls the host has its code, whatever was or was not asked of it.
 */
export class PageCode {
  readonly #onServed: () => void;
  #awaited: Set<string> | null = null;
  #said = false;

  constructor(onServed: () => void) {
    this.#onServed = onServed;
  }

  /** The page itself was served: what it starts with is what its head names. */
  pageServed(html: string): void {
    if (this.#said || this.#awaited) return;
    this.#awaited = new Set(initialCode(html));
    this.#check();
  }

  /** A file of the page's was served. */
  fileServed(pathname: string): void {
    this.#awaited?.delete(pathname);
    this.#check();
  }

  /** The page called the host: its code is running. */
  pageCalled(): void {
    if (this.#said) return;
    this.#awaited = new Set();
    this.#check();
  }

  #check(): void {
    if (this.#said || !this.#awaited || this.#awaited.size > 0) return;
    this.#said = true;
    this.#onServed();
  }
}

const ASSET = /<(?:script|link)\b[^>]*?\b(?:src|href)="\.?\/([^"?#]+)"/gi;
const STARTING = /<script\b[^>]*\btype="module"|<link\b[^>]*\brel="(?:modulepreload|stylesheet)"/i;

/** The URL paths of the module script, preloaded modules and style sheets a built page's HTML starts with. */
export function initialCode(html: string): string[] {
  const paths: string[] = [];
  for (const match of html.matchAll(ASSET)) {
    if (STARTING.test(match[0])) paths.push(`/${match[1] as string}`);
  }
  return paths;
}
