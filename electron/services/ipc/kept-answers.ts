import type { ZodType } from 'zod';

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
 * The channel's output check of a handler's answer (dispatch.ts, the one place outputs are checked): parsed as
 * ever, but a kept answer (`keptAnswer`) already checked by this very schema is given as it was checked then.
 */
export function checkedOutput(schema: ZodType, value: unknown): ReturnType<ZodType['safeParse']> {
  const isKept = typeof value === 'object' && value !== null && checked.has(value);
  const kept = isKept ? checked.get(value) : null;
  if (kept && kept.schema === schema) return { success: true, data: kept.output };
  const output = schema.safeParse(value);
  if (isKept && output.success) {
    // The checked copy is sent again as it is: it must not change either.
    deepFreeze(output.data);
    checked.set(value, { schema, output: output.data });
  }
  return output;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const part of Object.values(value)) deepFreeze(part);
}
