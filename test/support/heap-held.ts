import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The collector asked for by the test itself (not a flag of the whole run): the heap then holds only what is live.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The bytes of the JavaScript heap still live after full collections: what a structure keeps, not its garbage. */
export function heldBytes(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/**
 * A page of a list as the service's answer is read: `count` items with ids `sc_<first>`, `sc_<first + 1>`..., each
 * id a string of its own made by JSON.parse, as the app's pages hold them (never one interned literal).
 */
export function parsedPage(first: number, count: number): Array<{ readonly cidrId: string }> {
  const items = Array.from({ length: count }, (_, i) => `{"cidrId":"sc_${first + i}"}`);
  return JSON.parse(`[${items.join(',')}]`) as Array<{ readonly cidrId: string }>;
}
