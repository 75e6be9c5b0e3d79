import { readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UnreadableCopy } from '../../../shared/ipc/offline.js';
import { readJsonFile, writeFileAtomic } from '../settings/json-file.js';

/**
 * What can be known about an offline copy without its key: the plain facts
 * written beside it, the times and sizes of its files, and the note left when
 * it was found unreadable. None of it holds a policy, a name or a secret.
 */

const FACTS_FILE = 'copy-facts.json';
const NOTE_FILE = 'unreadable.json';
/** The replica database of one owner, in the owner's folder. */
export const REPLICA_FILE = 'replica.db';

/**
 * Written in clear next to the encrypted copy so that, if the copy can no
 * longer be opened, the user can still be told how old it was and how much
 * was lost. Not authenticated on purpose: it is only ever used to word that
 * message, never to decide what to serve.
 */
export const CopyFacts = z.object({
  writtenAt: z.iso.datetime(),
  capacities: z.number().int().min(0),
});
export type CopyFacts = z.infer<typeof CopyFacts>;

export function writeCopyFacts(dir: string, facts: CopyFacts): Promise<void> {
  return writeFileAtomic(join(dir, FACTS_FILE), JSON.stringify(facts));
}

export function readCopyFacts(dir: string): Promise<CopyFacts | null> {
  return readJsonFile(join(dir, FACTS_FILE), CopyFacts.nullable(), null);
}

/** The note that a copy was found unreadable; kept until a fresh copy is written. */
export function writeUnreadableNote(dir: string, note: UnreadableCopy): Promise<void> {
  return writeFileAtomic(join(dir, NOTE_FILE), JSON.stringify(note));
}

export function readUnreadableNote(dir: string): Promise<UnreadableCopy | null> {
  return readJsonFile(join(dir, NOTE_FILE), UnreadableCopy.nullable(), null);
}

export async function removeUnreadableNote(dir: string): Promise<void> {
  await rm(join(dir, NOTE_FILE), { force: true });
}

/**
 * The encrypted files of the copy, with their stats: the replica database and
 * its write-ahead log (its shared-memory index holds no data and changes on
 * reads), and any `.bin` file an older version wrote.
 */
function copyFiles(dir: string): Array<{ path: string; size: bigint; mtimeNs: bigint; ino: bigint }> {
  // Read in the calling thread: every keystroke of the list waits for this check, and the same reads through
  // the thread pool (a hop for the listing, one for the stats) took 20 to 40 ms at load 20 where the calls
  // themselves take well under a millisecond (a folder of two or three files).
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  const files = entries.filter((e) => e.isFile() && isCopyFile(e.name)).map((e) => join(e.parentPath, e.name));
  const stats = files.map((path) => {
    try {
      const s = statSync(path, { bigint: true });
      return { path, size: s.size, mtimeNs: s.mtimeNs, ino: s.ino };
    } catch {
      // Removed (or made unreadable) between listing and stat: it is simply not part of the copy.
      return null;
    }
  });
  return stats.filter((s) => s !== null).sort((a, b) => (a.path < b.path ? -1 : 1));
}

function isCopyFile(name: string): boolean {
  return name.endsWith('.bin') || name === REPLICA_FILE || name === `${REPLICA_FILE}-wal`;
}

/** True when files of the format before the replica database (encrypted `.bin` files) are in the folder. */
export async function holdsOlderFormat(dir: string): Promise<boolean> {
  return copyFiles(dir).some((f) => f.path.endsWith('.bin'));
}

/** True when encrypted files of a copy are on disk (readable or not). */
export async function holdsCopy(dir: string): Promise<boolean> {
  return copyFiles(dir).length > 0;
}

/** When the copy's files were last written, from their times (ISO), or null when there are none. */
export async function lastWrittenFromFiles(dir: string): Promise<string | null> {
  const files = copyFiles(dir);
  if (files.length === 0) return null;
  const newest = files.reduce((max, f) => (f.mtimeNs > max ? f.mtimeNs : max), 0n);
  return new Date(Number(newest / 1_000_000n)).toISOString();
}

/**
 * Names the exact bytes on disk (path, size, change time, inode of every
 * encrypted file), so that a change made by anything but this app is noticed
 * without decrypting anything.
 */
export async function diskFingerprint(dir: string): Promise<string> {
  return copyFiles(dir).map((f) => `${f.path}:${f.size}:${f.mtimeNs}:${f.ino}`).join('\n');
}

/**
 * A fingerprint with one file's line as an earlier fingerprint had it (or without it, when that one had none):
 * what the files would be had only the others changed.
 */
export function withFileAsSeen(fingerprint: string, seen: string, path: string): string {
  const pathOf = (line: string) => line.split(':').slice(0, -3).join(':');
  const others = fingerprint.split('\n').filter((line) => line !== '' && pathOf(line) !== path);
  const kept = seen.split('\n').filter((line) => pathOf(line) === path);
  // In diskFingerprint's order (by path), so an unchanged disk gives the very same string.
  return [...others, ...kept].sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : 1)).join('\n');
}
