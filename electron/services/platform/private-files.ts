import { chmodSync, closeSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * What the app writes is for the person signed in to the computer alone: on
 * POSIX every file is 0600 and every folder 0700. Modes given at creation are
 * only masked by the umask (never widened), so files created with them are
 * private; a file or folder that already exists keeps its mode, hence
 * `tightenTree` at start. Windows keeps its folder ACLs (the user's profile).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

const posix = process.platform !== 'win32';

/** Creates a folder (and its parents) as 0700; an existing one is made 0700 too. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (posix) await chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes sure a file that another library creates and writes (SQLite) exists as
 * 0600 before it is opened, and that any of its companions already there
 * (SQLite's -wal and -shm, which it creates with the mode of the database file)
 * are 0600 as well.
 */
export function preparePrivateFileSync(file: string, companions: readonly string[] = []): void {
  if (!posix) return;
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, ...companions]) {
    try {
      chmodSync(path, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Takes every mode bit for group and others off the folder, and off every
 * file and folder inside it (symbolic links are neither followed nor
 * changed). Returns what was changed, relative to the folder, for the log.
 */
export async function tightenTree(root: string): Promise<string[]> {
  if (!posix) return [];
  const changed: string[] = [];
  const visit = async (path: string): Promise<void> => {
    const info = await lstat(path).catch(() => null);
    if (!info || info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((info.mode & 0o777) !== wanted && (info.mode & 0o077) !== 0) {
      await chmod(path, wanted);
      changed.push(relative(root, path) || '.');
    }
    if (!info.isDirectory()) return;
    for (const name of await readdir(path).catch(() => [])) await visit(join(path, name));
  };
  await visit(root);
  return changed;
}
