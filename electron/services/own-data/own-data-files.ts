import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ownerFolder, type Owner } from '../platform/owner.js';
import { OwnDataDb } from './own-data-db.js';

export const OWN_DATA_FILE = 'own.db';
/** A whole copy of the file as of the last write that was checked page by page: what an unreadable file is restored from. */
export const LAST_GOOD_FILE = 'own.db.last-good';
/** SQLite's rollback journal of the file: it belongs to the file and goes wherever the file goes. */
const JOURNAL_SUFFIX = '-journal';

/**
 * The own data of an owner lives beside the replica's folder, never inside it
 * (`<data>/own/<owner>/` against `<data>/cache/<owner>/`): whatever removes or
 * rebuilds the copy cannot take it along.
 */
export function ownDataDir(dataDir: string, owner: Owner): string {
  return join(dataDir, 'own', ownerFolder(owner));
}

/** The folder and the file, readable by this OS user only (0700, 0600), whatever the umask. */
export async function preparePrivateFile(dir: string): Promise<string> {
  for (const folder of [dirname(dir), dir]) {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await chmod(folder, 0o700);
  }
  await removeTornTemps(dir);
  const file = join(dir, OWN_DATA_FILE);
  // A file cut off during a restore is put back first: the last good state outlives the crash.
  if (!existsSync(file) && existsSync(join(dir, LAST_GOOD_FILE))) await restoreLastGood(dir);
  // Created before SQLite opens it: SQLite gives its journal the file's mode, and would create the file 0644.
  await (await open(file, 'a', 0o600)).close();
  await chmod(file, 0o600);
  return file;
}

/**
 * Keeps a checked copy of the file as its last good state: copied, every page
 * read with the key, flushed, then renamed over the previous one (the old copy
 * stands until the new one is whole). Called between writes, never during one.
 */
export async function writeLastGood(dir: string, key: Buffer): Promise<void> {
  const temporary = join(dir, `${LAST_GOOD_FILE}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await copyFlushed(join(dir, OWN_DATA_FILE), temporary);
    OwnDataDb.check(temporary, key);
    await rename(temporary, join(dir, LAST_GOOD_FILE));
    await flushFolder(dir);
  } finally {
    await rm(temporary, { force: true });
  }
}

/** When the last good state was written; null when there is none. */
export async function lastGoodAt(dir: string): Promise<string | null> {
  try {
    return (await stat(join(dir, LAST_GOOD_FILE))).mtime.toISOString();
  } catch {
    return null;
  }
}

/**
 * Moves an unreadable file (and its journal, which would otherwise be played
 * into whatever takes its place) aside under a name that says when; nothing is
 * deleted. Returns the name it is kept under.
 */
export async function keepAside(dir: string, name: string = OWN_DATA_FILE): Promise<string> {
  const keptAs = `${name}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`;
  await rename(join(dir, name), join(dir, keptAs));
  if (existsSync(join(dir, `${name}${JOURNAL_SUFFIX}`))) await rename(join(dir, `${name}${JOURNAL_SUFFIX}`), join(dir, `${keptAs}${JOURNAL_SUFFIX}`));
  await flushFolder(dir);
  return keptAs;
}

/** Puts the last good state in the file's place; returns when it was written, or null when there is none. */
export async function restoreLastGood(dir: string): Promise<string | null> {
  const at = await lastGoodAt(dir);
  if (at === null) return null;
  const temporary = join(dir, `${OWN_DATA_FILE}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await copyFlushed(join(dir, LAST_GOOD_FILE), temporary);
    await rename(temporary, join(dir, OWN_DATA_FILE));
    await flushFolder(dir);
  } finally {
    await rm(temporary, { force: true });
  }
  return at;
}

async function copyFlushed(from: string, to: string): Promise<void> {
  await copyFile(from, to);
  await chmod(to, 0o600);
  const handle = await open(to, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename durable; some systems (Windows) cannot open a folder, and do not need it. */
async function flushFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Not supported here: the rename is as durable as the file system makes it.
  } finally {
    await handle.close();
  }
}

/** Temp copies left by an app killed while writing one. */
async function removeTornTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith('.tmp')).map((name) => rm(join(dir, name), { force: true })));
}
