import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * Writes a file so that a crash leaves either the old or the new content:
 * temp file in the same folder, fsync, rename, fsync of the folder.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // Unique per write: two writes of one file in the same millisecond must not share a temp file.
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
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

/** Reads and validates a JSON file; a missing or unreadable one gives the fallback. */
export async function readJsonFile<T extends z.ZodType>(
  path: string,
  schema: T,
  fallback: z.output<T>,
): Promise<z.output<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return fallback;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}
