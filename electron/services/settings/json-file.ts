import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { UnreadableFile } from '../../../shared/ipc/unreadable-files.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../platform/private-files.js';
import { errorCode, isTransientFsError, retryTransient } from './transient-fs.js';

/**
 * Writes a file so that a crash leaves either the old or the new content:
 * temp file in the same folder, fsync, rename, fsync of the folder.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  refuseOverwriteOfUnreadable(path);
  await ensurePrivateDir(dirname(path));
  // Unique per write: two writes of one file in the same millisecond must not share a temp file.
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

export async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; the rename is already durable there.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Files found but neither read nor set aside in this run (the move failed, or
 * the file system would not let them be read right now): no writer may
 * replace them, since what they hold would be lost. A later successful read
 * lifts it.
 */
const keptInPlace = new Set<string>();

/** Thrown instead of writing over a file that could not be read nor set aside. */
export class UnreadableFileKept extends AppFailure {
  constructor(readonly path: string) {
    super({
      kind: 'internal',
      message:
        `Your change is in use but was not saved: ${path} could not be read and could not be set aside, so Capacity Desk does not write over it. ` +
        'Close any program that may be using it (a backup or virus scan) and restart Capacity Desk.',
    });
    this.name = 'UnreadableFileKept';
  }
}

/** Whether a writer may replace the file (false while it could be neither read nor set aside). */
export function mayOverwrite(path: string): boolean {
  return !keptInPlace.has(resolve(path));
}

function refuseOverwriteOfUnreadable(path: string): void {
  if (!mayOverwrite(path)) throw new UnreadableFileKept(path);
}

/** Told about every file that was found but could not be read (log it, show it). */
export type UnreadableReporter = (event: UnreadableFile) => void;

export interface ReadJsonOptions<T extends z.ZodType> {
  readonly onUnreadable?: UnreadableReporter | undefined;
  /**
   * A lenient reading of a file the schema refused, for files whose fields
   * stand on their own (preferences): what it gives is used, and the file
   * is still kept aside, since the next write would drop the rest.
   */
  readonly salvage?: z.ZodType<z.output<T>> | undefined;
}

/** The suffix of a file kept aside; the time keeps several apart. */
export const UNREADABLE_SUFFIX = '.unreadable-';

/**
 * Reads and validates a JSON file. A missing file gives the fallback. A file
 * that is there but cannot be read is never written over: it is moved aside
 * (`<name>.unreadable-<time>`) before the caller can write a new one, and
 * reported; the fallback (or what `salvage` reads) is used meanwhile.
 */
export async function readJsonFile<T extends z.ZodType>(
  path: string,
  schema: T,
  fallback: z.output<T>,
  options: ReadJsonOptions<T> = {},
): Promise<z.output<T>> {
  let text: string;
  try {
    text = await retryTransient(() => readFile(path, 'utf8'));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') {
      keptInPlace.delete(resolve(path));
      return fallback;
    }
    if (isTransientFsError(error)) {
      // Held by another program (an antivirus scan), or too many files open: nothing is wrong with the
      // file, so it stays where it is, untouched, and nothing is written over it in this run.
      keptInPlace.add(resolve(path));
      const now = new Date().toISOString();
      options.onUnreadable?.({ file: path, keptAs: null, reason: `it could not be read right now (${code}: another program may be using it)`, at: now });
      return fallback;
    }
    await keepAside(path, `it could not be opened (${code ?? 'read error'})`, options.onUnreadable);
    return fallback;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    await keepAside(path, 'it is not valid JSON (damaged or cut short)', options.onUnreadable);
    return fallback;
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) {
    keptInPlace.delete(resolve(path));
    return parsed.data;
  }
  await keepAside(path, whyRefused(raw), options.onUnreadable);
  const salvaged = options.salvage?.safeParse(raw);
  return salvaged?.success ? salvaged.data : fallback;
}

function whyRefused(raw: unknown): string {
  const version = typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > 1) return `it was written by a newer version of Capacity Desk (file version ${version})`;
  return 'its content is not what this version of Capacity Desk expects';
}

async function keepAside(path: string, reason: string, report: UnreadableReporter | undefined): Promise<void> {
  const now = new Date();
  // No ':' in the name: Windows does not allow it.
  const keptAs = `${path}${UNREADABLE_SUFFIX}${now.toISOString().replace(/[:.]/g, '-')}`;
  let moved: string | null = keptAs;
  try {
    await retryTransient(() => rename(path, keptAs));
    keptInPlace.delete(resolve(path));
  } catch {
    // Left where it is, and never written over: the next write must not destroy what could not be kept.
    moved = null;
    keptInPlace.add(resolve(path));
  }
  report?.({ file: path, keptAs: moved, reason, at: now.toISOString() });
}
