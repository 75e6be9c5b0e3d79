import { z } from 'zod';

/**
 * Kinds of failure the renderer can act on. The renderer branches on `kind`
 * and `field`, never on message text.
 */
export const ERROR_KINDS = [
  'invalid-input', // caught before anything was sent: the request's schema or the app's own rules
  'rejected', // the service refused the request as invalid (HTTP 400)
  'cancelled', // the caller stopped it (a sync or request the user cancelled)
  'forbidden', // refused by the app itself: an untrusted sender, an unknown channel
  'unauthorized', // sign-in refused, or the session is no longer valid
  'not-found',
  'offline', // the service cannot be reached
  'timeout',
  'server', // 5xx
  'contract', // the service answered something we cannot read
  'conflict', // a money action for the same policy is already in flight
  'unsettled', // a money action for this policy got no clear answer; nothing is sent until a read-back settles it
  'internal', // a bug of ours; logged in the main process
] as const;
export const ErrorKind = z.enum(ERROR_KINDS);
export type ErrorKind = z.infer<typeof ErrorKind>;

export const AppError = z.object({
  kind: ErrorKind,
  /** Plain words for the person using the app. */
  message: z.string(),
  /** HTTP status when the service answered. */
  status: z.number().int().optional(),
  /** The service's own description, verbatim. */
  description: z.string().optional(),
  /** The offending field, for messages shown next to a form field. */
  field: z.string().optional(),
});
export type AppError = z.infer<typeof AppError>;

/** The input was refused, by the app before sending or by the service: the form shows it next to its field. */
export function isInputError(error: AppError): boolean {
  return error.kind === 'invalid-input' || error.kind === 'rejected';
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export function resultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: AppError }),
  ]);
}

/** Thrown inside the main process; turned into `{ok: false}` at the IPC boundary. */
export class AppFailure extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
    this.name = 'AppFailure';
  }
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: AppError): Result<T> {
  return { ok: false, error };
}
