import { statSync } from 'node:fs';
import type { UnreadableReason } from '../../../shared/ipc/offline.js';
import { ReplicaFormatError } from './capacity-replica-db.js';

/** SQLCipher's page size: a file that is not a whole number of pages was cut short. */
const PAGE_BYTES = 4096;

/**
 * Why a replica read failed, when the failure means the copy on disk cannot
 * be trusted; null for any other error (a bug, a full disk), which is thrown
 * on as it is. SQLCipher authenticates every page, so a flipped byte, a
 * different key or tampering all read as SQLITE_NOTADB or SQLITE_CORRUPT.
 */
export function unreadableReason(error: unknown, file: string | null): UnreadableReason | null {
  if (error instanceof ReplicaFormatError) return 'incompatible';
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  if (code === 'SQLITE_IOERR_SHORT_READ') return 'incomplete';
  if (code !== 'SQLITE_NOTADB' && !code.startsWith('SQLITE_CORRUPT')) return null;
  return file && cutShort(file) ? 'incomplete' : 'damaged';
}

function cutShort(file: string): boolean {
  try {
    const { size } = statSync(file);
    return size % PAGE_BYTES !== 0;
  } catch {
    return true;
  }
}

/**
 * The file system or another program would not let the database be read just
 * now (held locked, too many files open, a refused open): that says nothing
 * about the copy, which is neither declared unreadable nor touched.
 */
export function transientFailure(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  if (code === 'SQLITE_IOERR_SHORT_READ') return false;
  return /^SQLITE_(BUSY|LOCKED|CANTOPEN|PERM|IOERR|FULL)/.test(code);
}
