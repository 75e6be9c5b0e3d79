import { STATUS_CODES } from 'node:http';
import { REASON } from '../../shared/api/contract-choices.js';
import type { ErrorEnvelope } from '../../shared/api/errors.js';
import { envelopeTimestamp } from '../../shared/format/dates.js';

/** Thrown by handlers for every error answer; the server turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
    this.name = 'ApiError';
  }
}

export function reasonPhrase(status: number): string {
  return REASON[status] ?? STATUS_CODES[status] ?? 'Error';
}

export function errorEnvelope(status: number, description: string, now: Date): ErrorEnvelope {
  return {
    error: {
      code: String(status),
      message: reasonPhrase(status),
      details: { timestamp: envelopeTimestamp(now), description },
    },
  };
}
