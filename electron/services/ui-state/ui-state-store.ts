import { join } from 'node:path';
import { z } from 'zod';
import { UI_STATE_MAX_KEYS, UiState, type UiStateEntry } from '../../../shared/ipc/ui-state.js';
import { dictionary } from '../../../shared/records.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { readJsonFile, writeFileAtomic, type UnreadableReporter } from '../settings/json-file.js';

export const UI_STATE_FILE = 'ui-state.json';

const StoredUiState = z.object({ version: z.literal(1), entries: UiState });

/** The views' small state in its own file in the data folder, written atomically, one write at a time. */
export class UiStateStore {
  readonly path: string;
  #entries: UiState = dictionary();
  #writes: Promise<void> = Promise.resolve();

  constructor(
    dataDir: string,
    private readonly onUnreadable?: UnreadableReporter,
  ) {
    this.path = join(dataDir, UI_STATE_FILE);
  }

  async load(): Promise<UiState> {
    const stored = await readJsonFile(this.path, StoredUiState, { version: 1, entries: {} }, { onUnreadable: this.onUnreadable });
    // Keys are the views' own names, but a hand-edited file must not reach Object.prototype.
    this.#entries = dictionary(Object.entries(stored.entries));
    return this.all();
  }

  all(): UiState {
    return dictionary(Object.entries(this.#entries));
  }

  async set({ key, value }: UiStateEntry): Promise<null> {
    if (!Object.hasOwn(this.#entries, key) && Object.keys(this.#entries).length >= UI_STATE_MAX_KEYS) {
      throw new AppFailure({ kind: 'invalid-input', message: 'Too many kinds of view state to keep.' });
    }
    this.#entries[key] = value;
    const snapshot = JSON.stringify({ version: 1, entries: this.#entries }, null, 2);
    const write = this.#writes.catch(() => undefined).then(() => writeFileAtomic(this.path, snapshot));
    this.#writes = write;
    await write;
    return null;
  }
}
