import { z } from 'zod';

/**
 * Building blocks of the tolerant readers: a field that is missing or of the
 * wrong kind becomes "not known" instead of failing the whole answer, list
 * items are read one at a time, and the names in FIELD_ALIASES are accepted
 * where the project's own name is absent.
 */

/** Any JSON value, as the generic section of a detail view shows it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]),
);
export const JsonObject = z.record(z.string(), JsonValue);
export type JsonObject = z.infer<typeof JsonObject>;

type Loose<T extends z.ZodType> = z.ZodCatch<z.ZodOptional<T>>;
export type LooseShape<S extends z.core.$ZodLooseShape> = { [K in keyof S]: S[K] extends z.ZodType ? Loose<S[K]> : never };

/** A field that reads as undefined when it is absent or not of its kind. */
export function loose<T extends z.ZodType>(schema: T): Loose<T> {
  return z.optional(schema).catch(undefined);
}

/** The same fields, each one loose: an object the service sent partly still reads. */
export function looseShape<S extends Readonly<Record<string, z.ZodType>>>(shape: S): LooseShape<S> {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, loose(field)])) as LooseShape<S>;
}

/** Why an item of a list was left out: field paths and kinds of problem, never values. */
export const SkippedItem = z.object({
  /** Position of the item in the answer (0-based). */
  index: z.number().int().min(0),
  problems: z.array(z.string()),
});
export type SkippedItem = z.infer<typeof SkippedItem>;

export interface ItemsRead<T> {
  readonly items: T[];
  readonly skipped: SkippedItem[];
}

/** Reads each item on its own: an item that fails its schema is left out and counted, the others show. */
export function readItems<T extends z.ZodType>(
  raw: readonly unknown[],
  schema: T,
  aliases: AliasMap = {},
): ItemsRead<z.output<T>> {
  const items: z.output<T>[] = [];
  const skipped: SkippedItem[] = [];
  raw.forEach((item, index) => {
    const parsed = schema.safeParse(withAliases(item, aliases));
    if (parsed.success) items.push(parsed.data);
    else skipped.push({ index, problems: describeIssues(parsed.error.issues) });
  });
  return { items, skipped };
}

/** Plain words for each failing field ("cidrId is missing"), with no value in them. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const words = issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the item';
    if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) return `${path} is missing`;
    if (issue.code === 'invalid_type') return `${path} is not ${withArticle(String(issue.expected))}`;
    return `${path} is not valid`;
  });
  return [...new Set(words)];
}

/** "an object", "a string": the kind with its article. */
export function withArticle(kind: string): string {
  return /^[aeiou]/i.test(kind) ? `an ${kind}` : `a ${kind}`;
}

export type AliasMap = Readonly<Record<string, readonly string[]>>;

/** Renames an alias to the project's name when the project's name is absent; other values pass through. */
export function withAliases(value: unknown, aliases: AliasMap): unknown {
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [name, others] of Object.entries(aliases)) {
    if (value[name] !== undefined) continue;
    const found = others.find((other) => value[other] !== undefined);
    if (found === undefined) continue;
    copy ??= { ...value };
    copy[name] = value[found];
    delete copy[found];
  }
  return copy ?? value;
}

/** A schema's field for a key the service sent: its own field only, never something inherited (`constructor`, `toString`). */
export function ownField<T>(shape: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(shape, key) ? shape[key] : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON-safe copy of a value (undefined and functions dropped), for the generic section. */
export function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(toJson);
  if (isPlainObject(value)) {
    const out = Object.create(null) as Record<string, JsonValue>;
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toJson(item);
    return out;
  }
  return null;
}
