import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mayOverwrite, readJsonFile, writeFileAtomic, type UnreadableReporter } from '../settings/json-file.js';
import { WindowState } from './window-placement.js';

export const WINDOW_STATE_FILE = 'window-state.json';

/** The main window's last bounds, in the data folder. A damaged file means "no saved state" (and is kept aside). */
export class WindowStateStore {
  readonly path: string;

  constructor(
    dataDir: string,
    private readonly onUnreadable?: UnreadableReporter,
  ) {
    this.path = join(dataDir, WINDOW_STATE_FILE);
  }

  load(): Promise<WindowState | null> {
    return readJsonFile(this.path, WindowState.nullable(), null, { onUnreadable: this.onUnreadable });
  }

  save(state: WindowState): Promise<void> {
    return writeFileAtomic(this.path, JSON.stringify(WindowState.parse(state)));
  }

  /**
   * For the window's close: the app may be quitting, and nothing waits for a
   * promise then. The file is a few bytes; write-then-rename keeps it whole.
   */
  saveNow(state: WindowState): void {
    // A file that could be neither read nor set aside is not written over (see json-file.ts).
    if (!mayOverwrite(this.path)) return;
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(WindowState.parse(state)), { mode: 0o600 });
    renameSync(temp, this.path);
  }
}
