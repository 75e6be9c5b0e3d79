import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { MESSAGE } from '../../shared/api/contract-choices.js';
import { ApiError } from './envelope.js';

/** Far above any body of this API; stops a runaway client from filling memory. */
const UNKNOWN_FIELD = 'is not a known field';

export const MAX_BODY_BYTES = 1024 * 1024;

const EMPTY = Buffer.alloc(0);

export function readBody(req: IncomingMessage): Promise<Buffer> | Buffer {
  // No length and no chunking means no body: skip the stream machinery (most requests are GETs).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return EMPTY;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? reject(new ApiError(400, MESSAGE.bodyUnparsable)) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

/** `<field>: <rule>` from the first issue, or the generic text when no field is to blame. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0];
  // Only the strict schemas of the test controls reject unknown fields; API bodies ignore them.
  if (first?.code === 'unrecognized_keys') return MESSAGE.fieldRule(first.keys[0] ?? '', UNKNOWN_FIELD);
  const field = first?.path[0];
  if (!first || field === undefined) return MESSAGE.bodyUnparsable;
  return MESSAGE.fieldRule(String(field), first.message);
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError(400, MESSAGE.bodyUnparsable);
  }
}

/** Parses a JSON body with its schema; every failure is a 400 with the contract's description. */
export function parseBody<S extends z.ZodType>(body: Buffer, schema: S): z.output<S> {
  const value = parseJson(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError(400, MESSAGE.bodyUnparsable);
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, describeIssues(result.error.issues));
  return result.data;
}

/** Query text to a plain object; the first of repeated names wins. */
export function queryObject(params: URLSearchParams): Record<string, string> {
  // No prototype, so a parameter named __proto__ is just a parameter.
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of params) if (!Object.hasOwn(out, name)) out[name] = value;
  return out;
}

export function parseQuery<S extends z.ZodType>(params: URLSearchParams, schema: S): z.output<S> {
  const result = schema.safeParse(queryObject(params));
  if (!result.success) throw new ApiError(400, describeIssues(result.error.issues));
  return result.data;
}
