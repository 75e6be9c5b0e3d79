import type { UnreadableFile } from '../../../shared/ipc/unreadable-files.js';
import type { UnreadableReporter } from './json-file.js';

/**
 * The settings-like files found unreadable in this run (each already kept
 * aside by readJsonFile): logged once, and listed for the renderer, which
 * tells the person where the file is and that defaults are in use.
 */
export class UnreadableFiles {
  readonly #found: UnreadableFile[] = [];

  constructor(private readonly log: (event: UnreadableFile) => void) {}

  readonly report: UnreadableReporter = (event) => {
    this.#found.push(event);
    this.log(event);
  };

  list(): UnreadableFile[] {
    return [...this.#found];
  }
}
