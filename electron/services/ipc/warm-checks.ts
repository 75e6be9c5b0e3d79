import type { ZodType } from 'zod';
import { CONTRACT } from '../../../shared/ipc/contract.js';
import type { Channel } from '../../../shared/ipc/channels.js';
import { checkedOutput } from './kept-answers.js';

/**
 * The parts of a zod schema's definition that hold the schemas inside it (zod v4's `_zod.def`); each is present only
 * for the kinds that have it (an object's shape, a wrapper's inner type, an array's element...).
 */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, ZodType>>;
  readonly innerType?: ZodType;
  readonly element?: ZodType;
  readonly keyType?: ZodType;
  readonly valueType?: ZodType;
  readonly options?: readonly ZodType[];
  readonly left?: ZodType;
  readonly right?: ZodType;
  readonly items?: readonly ZodType[];
  readonly rest?: ZodType | null;
  readonly in?: ZodType;
  readonly out?: ZodType;
  readonly catchall?: ZodType;
}

const warmed = new WeakSet<ZodType>();

/**
 * Has every object schema inside `schema` make its fast check now, rather than at the first value it checks: zod
 * compiles an object's check (`new Function`) the first time it parses an object, which made the first Renewals
 * answer of a process (the first click after a sync, issue 28) spend 10-14 ms of CPU quiet, and 110 ms of its
 * 312 ms turn in the host at load 37, compiling the worklist's answer and policy shapes in the dispatch's output
 * check. Each object is handed `{}` (the check compiles before it looks at the fields; its failure is of no
 * interest); lazy schemas are not followed (they would be evaluated here for nothing). Once a schema.
 */
export function warmCheck(schema: ZodType): void {
  const stack: ZodType[] = [schema];
  while (stack.length > 0) {
    const next = stack.pop() as ZodType;
    if (warmed.has(next)) continue;
    warmed.add(next);
    const def = next._zod.def as SchemaDef;
    if (def.type === 'object') next.safeParse({});
    const inner = [def.innerType, def.element, def.keyType, def.valueType, def.left, def.right, def.in, def.out, def.catchall, def.rest, ...(def.options ?? []), ...(def.items ?? []), ...Object.values(def.shape ?? {})];
    for (const part of inner) if (part) stack.push(part);
  }
}

/** The output check of a channel warmed (`warmCheck`): for an answer a person waits for first in a process. */
export function warmOutputCheck(channel: Channel): void {
  warmCheck(CONTRACT[channel].output);
}

/**
 * A kept answer (`keptAnswer`) made ahead for `channel` checked now by the channel's output check, as its first send
 * would (`checkedOutput` remembers it): that send then gives it as checked. The Renewals' opening first rows, checked
 * as they are made ahead rather than when the first click after a sync asks for them (issue 28, renew18).
 */
export function checkKeptAhead(channel: Channel, answer: object): void {
  checkedOutput(CONTRACT[channel].output, answer);
}
