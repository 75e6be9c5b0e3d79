import type { Origin } from '../../shared/ipc/sourced.js';

/** The origin a sourced answer carries (shared/ipc/sourced.ts); null for answers that carry none. */
export function originOf(value: unknown): Origin | null {
  if (typeof value !== 'object' || value === null || !('origin' in value)) return null;
  const origin = value.origin;
  if (typeof origin !== 'object' || origin === null || !('source' in origin) || !('fetchedAt' in origin)) return null;
  return origin as Origin;
}
