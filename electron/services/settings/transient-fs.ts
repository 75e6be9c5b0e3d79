import { setTimeout as sleep } from 'node:timers/promises';

/**
 * File-system errors that say "not now", not "not there" or "damaged": a file
 * held by another program (an antivirus scan on Windows: EBUSY, EPERM,
 * EACCES), too many open files, a resource busy for a moment. A file that
 * fails this way is never taken as damaged, deleted or set aside.
 */
const TRANSIENT_CODES = new Set(['EBUSY', 'EPERM', 'EACCES', 'EMFILE', 'ENFILE', 'EAGAIN']);

export function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isTransientFsError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

/** How long to wait before each retry: about half a second in all, short enough to be unnoticed. */
export const TRANSIENT_RETRY_DELAYS_MS: readonly number[] = [30, 100, 300];

/** Runs `work`, again after a short wait while it fails with a transient error; the last error is thrown. */
export async function retryTransient<T>(work: () => Promise<T>, delays: readonly number[] = TRANSIENT_RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isTransientFsError(error)) throw error;
      await sleep(delay);
    }
  }
}
