import type { z } from 'zod';
import { ENDPOINTS } from '../../../shared/api/endpoints.js';
import { driftFindings } from '../../../shared/api/drift.js';
import { READERS, type ReadContext, type ReadEndpoint, type ReadOf } from '../../../shared/api/readers.js';
import type { AppError } from '../../../shared/ipc/result.js';
import { contractError } from './errors.js';

/**
 * A read endpoint's success answer read tolerantly (shared/api/readers.ts), with how it differs from the expected
 * shape: the one way such an answer is read, by ApiClient.read on the main thread and by the list-page thread
 * (replica/list-page-thread.ts), so both give the same value, the same drift and the same error. Plain data in,
 * plain data out: it can run on any thread.
 */
export type AnswerRead<T> =
  | { readonly value: T; readonly drift: readonly string[] }
  | { readonly failure: AppError; readonly drift: readonly string[] };

/** Said as the drift when the comparison itself failed (diagnostics never fail a read). */
export const DRIFT_NOT_COMPARED = 'the answer could not be compared with the expected shape';

/** Said when a success answer's body is not JSON (the service acted; the answer cannot be read). */
export function notJsonError(status: number): AppError {
  return { kind: 'contract', status, message: 'The service answered with a body that is not JSON.' };
}

/**
 * `text`, the body of an answer whose status the endpoint lists as a success, read as the endpoint's view.
 * `withDrift`: work out the drift findings (only when someone listens: it is as much work as the read).
 */
export function readAnswerText<N extends ReadEndpoint>(name: N, status: number, text: string, context: ReadContext, withDrift: boolean): AnswerRead<ReadOf<N>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { failure: notJsonError(status), drift: [] };
  }
  const schema = (ENDPOINTS[name].responses as Readonly<Record<number, z.ZodType>>)[status] as z.ZodType;
  const drift = withDrift ? driftOf(schema, json) : [];
  const value = READERS[name].read(json, context);
  if (value === null) {
    const parsed = schema.safeParse(json);
    return { failure: parsed.success ? { kind: 'contract', status, message: "The service's answer could not be read." } : contractError(status, parsed.error.issues), drift };
  }
  return { value: value as ReadOf<N>, drift };
}

function driftOf(schema: z.ZodType, json: unknown): readonly string[] {
  try {
    return driftFindings(schema, json);
  } catch {
    return [DRIFT_NOT_COMPARED];
  }
}
