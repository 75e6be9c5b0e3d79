import type { ErrorKind } from '../../../shared/ipc/result.js';

/** A short headline per kind of failure; the error's own message says the rest. */
export const ERROR_TITLES: Readonly<Record<ErrorKind, string>> = {
  'invalid-input': 'Check the details',
  rejected: 'The service refused this',
  cancelled: 'Cancelled',
  forbidden: 'Request refused',
  unauthorized: 'Your session has ended',
  'not-found': 'Not found',
  offline: 'The service cannot be reached',
  timeout: 'The service is taking too long',
  server: 'The service had a problem',
  contract: 'The service answered something unexpected',
  conflict: 'Already in progress',
  unsettled: 'Checking the outcome first',
  internal: 'Something went wrong in Capacity Desk',
};

/** Kinds where trying the same thing again may well work. */
export function isRetryable(kind: ErrorKind): boolean {
  return kind === 'offline' || kind === 'timeout' || kind === 'server' || kind === 'conflict';
}
