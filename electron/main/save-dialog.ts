import { app, BrowserWindow, dialog, type SaveDialogOptions } from 'electron';
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppFailure } from '../../shared/ipc/result.js';
import type { SaveFileHost, SaveFileRequest } from '../services/files/save-file.js';
import { PRIVATE_FILE_MODE } from '../services/platform/private-files.js';

/**
 * Saving through the OS save dialog: the person picks the place, so the
 * renderer never names a path and can write nowhere else.
 */
export const electronSaveFileHost: SaveFileHost = {
  async save(request: SaveFileRequest) {
    const options: SaveDialogOptions = {
      title: request.title ?? 'Export as CSV',
      defaultPath: join(app.getPath('downloads'), request.suggestedName),
      filters: [{ name: request.filter.name, extensions: [...request.filter.extensions] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const parent = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
    const answer = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    if (answer.canceled || !answer.filePath) return null;
    await writeWhole(answer.filePath, request.content);
    return { path: answer.filePath };
  },
};

/** Writes beside the target and renames, so a failed write never leaves half a file under the chosen name. */
async function writeWhole(path: string, content: string | Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // An export of customers' policies is for the person who made it: 0600 like every file the app writes.
    await writeFile(temp, content, typeof content === 'string' ? { encoding: 'utf8', flush: true, mode: PRIVATE_FILE_MODE } : { flush: true, mode: PRIVATE_FILE_MODE });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : 'unknown error';
    throw new AppFailure({
      kind: 'internal',
      message: `The file could not be written to ${dirname(path)} (${code}). Choose another folder and try again.`,
    });
  }
}
