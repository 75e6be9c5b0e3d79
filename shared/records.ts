import { z } from 'zod';

/**
 * Records keyed by text that comes from a person, a file or the service
 * (profile ids, usernames, customer and policy ids). A plain object answers
 * `constructor`, `toString` or `__proto__` from Object.prototype, and an
 * assignment to `__proto__` changes its prototype; these helpers make such
 * text an ordinary key.
 */

/** The record's own entry for the key; never something inherited. */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A record without a prototype, filled from entries (later ones win). */
export function dictionary<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [key, item] of entries) out[key] = item;
  return out;
}

/** The record without one key (own entries only). */
export function withoutEntry<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return dictionary(Object.entries(record).filter(([k]) => k !== key));
}

/** The record with one key set. */
export function withEntry<T>(record: Readonly<Record<string, T>>, key: string, item: T): Record<string, T> {
  return dictionary([...Object.entries(record), [key, item] as const]);
}

/**
 * Like `z.record(z.string(), value)`, but every key of the input is kept
 * (zod drops a `__proto__` key) and the output has no prototype.
 */
export function dictionaryOf<V extends z.ZodType>(value: V) {
  return z
    .custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), {
      error: 'Expected an object',
    })
    .transform((input, ctx) => {
      const out = dictionary<z.output<V>>();
      for (const [key, item] of Object.entries(input)) {
        const parsed = value.safeParse(item);
        if (parsed.success) out[key] = parsed.data;
        else for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
      }
      return out;
    });
}
