/**
 * Whether a value would take more than `limit` bytes as JSON. The Electron host
 * hands dispatch a structured clone, not bytes, so the browser host's body limit
 * has no counterpart there: this walk gives it one. It stops as soon as the limit
 * is passed, so a huge input costs no more than the limit to refuse, and counts
 * an object met twice (structured clones may share or cycle) each time it is met
 * up to the limit, never looping forever.
 */
export function exceedsJsonBytes(value: unknown, limit: number): boolean {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    total += shallowBytes(next);
    if (total > limit) return true;
    if (next !== null && typeof next === 'object') {
      if (Array.isArray(next)) for (const item of next as unknown[]) pending.push(item);
      else
        for (const [key, item] of Object.entries(next)) {
          total += byteLength(key) + 3;
          if (total > limit) return true;
          pending.push(item);
        }
    }
  }
  return false;
}

/** The bytes a value adds by itself: its brackets and the commas between its members, the members not counted. */
function shallowBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return byteLength(value) + 2;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value).length;
    case 'object':
      if (value === null) return 4;
      return 2 + Math.max(0, (Array.isArray(value) ? value.length : Object.keys(value).length) - 1);
    default:
      return 0;
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
