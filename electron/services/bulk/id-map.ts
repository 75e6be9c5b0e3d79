/** Digits a numbered id may end in to be held as a number: below 10^9, a small integer (no heap object) in V8. */
const MAX_DIGITS = 9;

/**
 * A map from a list item's id to a small value (a page, a row id), for the ids of a whole list at once (a first
 * sync of 1,000,000). An id made of a fixed prefix and a number (`sc_1000001`: "sc_" and 1000001) is held as that
 * number under its prefix, so the map keeps no string per id alive: at 1M, each id's text held by four structures
 * through the stream was what the garbage collector's major pauses walked (1.1-2.5 s; branch curve11's tracer).
 * Any other id (no number at its end, a leading zero, more digits) is held as it is: the same answers either way.
 */
export class IdMap<V> {
  readonly #numbered = new Map<string, Map<number, V>>();
  readonly #other = new Map<string, V>();
  /** The prefix of the last numbered id and its map: ids of one list share one prefix. */
  #lastPrefix: string | null = null;
  #last: Map<number, V> | null = null;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: string): V | undefined {
    const at = numberedAt(id);
    if (at < 0) return this.#other.get(id);
    return this.#byPrefix(id, at, false)?.get(numberFrom(id, at));
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Sets `id` to `value` (never undefined: `get` answers undefined for an id not held). */
  set(id: string, value: V): this {
    const at = numberedAt(id);
    const map = at < 0 ? null : (this.#byPrefix(id, at, true) as Map<number, V>);
    const before = map ? map.size : this.#other.size;
    if (map) map.set(numberFrom(id, at), value);
    else this.#other.set(id, value);
    this.#size += (map ? map.size : this.#other.size) - before;
    return this;
  }

  #byPrefix(id: string, at: number, create: boolean): Map<number, V> | undefined {
    if (this.#lastPrefix !== null && this.#lastPrefix.length === at && id.startsWith(this.#lastPrefix)) return this.#last ?? undefined;
    const prefix = id.slice(0, at);
    let map = this.#numbered.get(prefix);
    if (!map && create) this.#numbered.set(prefix, (map = new Map()));
    if (map) {
      this.#lastPrefix = prefix;
      this.#last = map;
    }
    return map;
  }
}

/** Where the number an id ends in starts (1 to MAX_DIGITS digits, no leading zero), or -1 when it is not numbered so. */
function numberedAt(id: string): number {
  let at = id.length;
  while (at > 0 && isDigit(id.charCodeAt(at - 1))) at -= 1;
  const digits = id.length - at;
  if (digits === 0 || digits > MAX_DIGITS || id.charCodeAt(at) === 48) return -1;
  return at;
}

function numberFrom(id: string, at: number): number {
  let n = 0;
  for (let i = at; i < id.length; i += 1) n = n * 10 + (id.charCodeAt(i) - 48);
  return n;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
