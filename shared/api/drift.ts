import type { z } from 'zod';
import { isPlainObject, ownField, withArticle } from './tolerant.js';

/**
 * How an answer differs from the shape this version expects, as field paths
 * only (array positions folded to `[]`), never values: the same difference in
 * two answers gives the same findings, so it is reported once.
 */
export function driftFindings(schema: z.ZodType, value: unknown): string[] {
  const findings = new Set<string>();
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = foldPath(issue.path);
      if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) findings.add(`missing ${path}`);
      else if (issue.code === 'invalid_type') findings.add(`not ${withArticle(String(issue.expected))}: ${path}`);
      else if (issue.code === 'invalid_union') findings.add(`unexpected shape: ${path}`);
      else findings.add(`not valid: ${path}`);
    }
  }
  for (const path of unknownFields(schema, value, [])) findings.add(`unknown field ${path}`);
  return [...findings].sort();
}

/** Paths of the fields of `value` that `schema` does not name, folded like driftFindings'. */
export function unknownFields(schema: z.ZodType, value: unknown, at: readonly PropertyKey[]): string[] {
  const found = new Set<string>();
  collectUnknown(schema, value, [...at], found);
  return [...found];
}

/**
 * unknownFields' walk, one path kept and grown in place and one set of findings for the whole answer: a copy of
 * the path for every field and a set at every level made it the largest part of reading a list page (a refresh
 * reads every page; the host's profile at 100,000 policies: drift ~40 % of the answers' reading, and its garbage).
 */
function collectUnknown(schema: z.ZodType, value: unknown, path: PropertyKey[], found: Set<string>): void {
  const node = unwrap(schema, value);
  if (!node) return;
  if (node.kind === 'object' && isPlainObject(value)) {
    // Own keys only, as Object.entries lists them; an own `__proto__` read by name is the field, not the prototype.
    for (const key of Object.keys(value)) {
      path.push(key);
      const field = ownField(node.shape, key);
      if (field) collectUnknown(field, value[key], path, found);
      else found.add(foldPath(path));
      path.pop();
    }
  } else if (node.kind === 'array' && Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      collectUnknown(node.element, value[index], path, found);
      path.pop();
    }
  } else if (node.kind === 'record' && isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      path.push(key);
      collectUnknown(node.value, value[key], path, found);
      path.pop();
    }
  }
}

/** The part of `value` that `schema` does not name (null when nothing is left over). */
export function leftover(schema: z.ZodType, value: unknown): Record<string, unknown> | null {
  const node = unwrap(schema, value);
  if (!node || node.kind !== 'object' || !isPlainObject(value)) return null;
  // The service names these keys: no prototype, so `__proto__` or `constructor` is an ordinary field.
  const rest = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) {
    const field = ownField(node.shape, key);
    if (!field) rest[key] = item;
    else {
      const inner = leftover(field, item);
      if (inner) rest[key] = inner;
    }
  }
  return Object.keys(rest).length > 0 ? rest : null;
}

export function foldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += '[]';
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(answer)' : text;
}

type Node =
  | { kind: 'object'; shape: Readonly<Record<string, z.ZodType>> }
  | { kind: 'array'; element: z.ZodType }
  | { kind: 'record'; value: z.ZodType };

interface DefLike {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

/** Sees through wrappers (optional, nullable, catch, pipe, lazy, union) to the object, array or record. */
function unwrap(schema: z.ZodType, value: unknown, depth = 0): Node | null {
  if (depth > 20) return null;
  const def = (schema as unknown as { _zod: { def: DefLike } })._zod.def;
  switch (def.type) {
    case 'object':
      return { kind: 'object', shape: def.shape ?? {} };
    case 'array':
      return def.element ? { kind: 'array', element: def.element } : null;
    case 'record':
      return def.valueType ? { kind: 'record', value: def.valueType } : null;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? unwrap(def.innerType, value, depth + 1) : null;
    case 'pipe':
      return def.in ? unwrap(def.in, value, depth + 1) : null;
    case 'lazy':
      return def.getter ? unwrap(def.getter(), value, depth + 1) : null;
    case 'union': {
      const options = def.options ?? [];
      const fit = options.find((option) => option.safeParse(value).success) ?? options[0];
      return fit ? unwrap(fit, value, depth + 1) : null;
    }
    default:
      return null;
  }
}
