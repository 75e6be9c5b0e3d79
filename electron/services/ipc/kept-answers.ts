import { z, type ZodType } from 'zod';

/** The answers a service keeps and gives again, each with its channel's check once made (null before its first send). */
const checked = new WeakMap<object, { readonly schema: ZodType; readonly output: unknown } | null>();

/**
 * Marks an answer a service keeps and hands back again unchanged (the worklist's kept windows): frozen whole, so
 * that what the channel's output check found once stays true, and `checkedOutput` checks it at its first send
 * only (checking the same 100 rows again took 5-116 ms by load on every kept Renewals opening, issue 28). Every
 * object in it must be its own: one shared with other answers or with the service's state (the account manager's
 * entries) is frozen there too, so the maker puts copies of those in.
 */
export function keptAnswer<T extends object>(answer: T): T {
  deepFreeze(answer);
  checked.set(answer, null);
  return answer;
}

/**
 * Records checked once where they are made (`checkedOnce`), each with the schema that checked it: the capacity list's
 * rows read from the copy are checked as a record is first read and kept so (checked-records.ts), where every answer
 * checked all its rows again (a full page's rows, 20 ms of a quiet turn of the host while the person typed during a
 * refresh; 160-400 ms at load 35-40: keystroke-refresh's tracer, issue 25).
 */
const checkedRecords = new WeakMap<object, ZodType>();

/**
 * `value` checked by `schema`, frozen whole and marked as checked by it: an answer's `rows` made of such records are
 * not checked again by `checkedOutput`. Null when it does not pass (the answer's own check then says so, as ever).
 */
export function checkedOnce<T extends object>(schema: ZodType<T>, value: unknown): T | null {
  const output = schema.safeParse(value);
  if (!output.success) return null;
  deepFreeze(output.data);
  checkedRecords.set(output.data, schema);
  return output.data;
}

/**
 * The channel's output check of a handler's answer (dispatch.ts, the one place outputs are checked): parsed as
 * ever, but a kept answer (`keptAnswer`) already checked by this very schema is given as it was checked then.
 */
export function checkedOutput(schema: ZodType, value: unknown): ReturnType<ZodType['safeParse']> {
  const isKept = typeof value === 'object' && value !== null && checked.has(value);
  const kept = isKept ? checked.get(value) : null;
  if (kept && kept.schema === schema) return { success: true, data: kept.output };
  const rows = rowsCheckedBefore(schema, value);
  if (rows) {
    // The rest of the answer checked as ever; its rows, checked by this very row schema where they were read, put back.
    const rest = schema.safeParse({ ...(value as object), rows: [] });
    return rest.success ? { success: true, data: { ...(rest.data as object), rows } } : rest;
  }
  const output = schema.safeParse(value);
  if (isKept && output.success) {
    // The checked copy is sent again as it is: it must not change either.
    deepFreeze(output.data);
    checked.set(value, { schema, output: output.data });
  }
  return output;
}

/** An answer's `rows` when the schema's `rows` is an array of one row schema and every row was checked by that schema (`checkedOnce`). */
function rowsCheckedBefore(schema: ZodType, value: unknown): readonly object[] | null {
  if (!(schema instanceof z.ZodObject) || typeof value !== 'object' || value === null) return null;
  const field = (schema.shape as Record<string, ZodType>)['rows'];
  const rows = (value as { rows?: unknown }).rows;
  if (!(field instanceof z.ZodArray) || !Array.isArray(rows) || rows.length === 0) return null;
  const row = field.element;
  return rows.every((item: unknown) => typeof item === 'object' && item !== null && checkedRecords.get(item) === row) ? (rows as object[]) : null;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const part of Object.values(value)) deepFreeze(part);
}
