/** Digits a numbered id may end in to be held as a number: below 10^9, a small integer (no heap object) in V8. */
const MAX_DIGITS = 9;

/**
 * Entries one part holds at most: numbered ids go to a part by their number's run of PART_SPAN (so a part never
 * holds more), other ids by a hash of their text over OTHER_PARTS parts. A `Map` grows by copying all its entries
 * into a table twice the size in one piece: one map of 1,000,000 numbers rehashed in 1.4-2.8 s at load 30-50 (branch
 * curve17's trace of the 1M first sync, `IdMap.set`), where a part's copy is at most PART_SPAN entries.
 */
export const PART_SPAN = 16_384;
const OTHER_PARTS = 256;

/**
 * A map from a list item's id to a small value (a page, a row id), for the ids of a whole list at once (a first
 * sync of 1,000,000). An id made of a fixed prefix and a number (`sc_1000001`: "sc_" and 1000001) is held as that
 * number under its prefix, so the map keeps no string per id alive: at 1M, each id's text held by four structures
 * through the stream was what the garbage collector's major pauses walked (1.1-2.5 s; branch curve11's tracer).
 * Any other id (no number at its end, a leading zero, more digits) is held as it is: the same answers either way.
 * Held in parts of bounded size (PART_SPAN), so no single growth of the map copies the whole list.
 */
export class IdMap<V> {
  /** Per prefix, the parts by number run (`n / PART_SPAN`); each part holds at most PART_SPAN numbers. */
  readonly #numbered = new Map<string, Map<number, Map<number, V>>>();
  /** Ids held as they are, by a hash of their text. */
  readonly #other: Array<Map<string, V> | undefined> = [];
  /** The prefix of the last numbered id and its parts: ids of one list share one prefix. */
  #lastPrefix: string | null = null;
  #last: Map<number, Map<number, V>> | null = null;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The entries of the largest single map held (never above PART_SPAN for numbered ids): what one growth copies. */
  get largestPart(): number {
    let largest = 0;
    for (const parts of this.#numbered.values()) for (const part of parts.values()) largest = Math.max(largest, part.size);
    for (const part of this.#other) largest = Math.max(largest, part?.size ?? 0);
    return largest;
  }

  get(id: string): V | undefined {
    const at = numberedAt(id);
    if (at < 0) return this.#other[textHash(id)]?.get(id);
    const n = numberFrom(id, at);
    return this.#byPrefix(id, at, false)?.get(Math.floor(n / PART_SPAN))?.get(n);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Sets `id` to `value` (never undefined: `get` answers undefined for an id not held). */
  set(id: string, value: V): this {
    const at = numberedAt(id);
    let part: Map<number, V> | Map<string, V>;
    let key: number | string;
    if (at < 0) {
      const bucket = textHash(id);
      part = this.#other[bucket] ??= new Map<string, V>();
      key = id;
    } else {
      const parts = this.#byPrefix(id, at, true) as Map<number, Map<number, V>>;
      key = numberFrom(id, at);
      const run = Math.floor(key / PART_SPAN);
      let found = parts.get(run);
      if (!found) parts.set(run, (found = new Map()));
      part = found;
    }
    const before = part.size;
    (part as Map<number | string, V>).set(key, value);
    this.#size += part.size - before;
    return this;
  }

  #byPrefix(id: string, at: number, create: boolean): Map<number, Map<number, V>> | undefined {
    if (this.#lastPrefix !== null && this.#lastPrefix.length === at && id.startsWith(this.#lastPrefix)) return this.#last ?? undefined;
    const prefix = id.slice(0, at);
    let parts = this.#numbered.get(prefix);
    if (!parts && create) this.#numbered.set(prefix, (parts = new Map()));
    if (parts) {
      this.#lastPrefix = prefix;
      this.#last = parts;
    }
    return parts;
  }
}

/** An id's part among OTHER_PARTS (FNV-1a over its UTF-16 units). */
function textHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % OTHER_PARTS;
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
