/**
 * A small seeded generator (mulberry32): the seeded data must be the same for
 * the same seed on every machine, which Math.random cannot promise.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by relative weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = choices[choices.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }
}

/** FNV-1a: a stable hash of text, for values that must not depend on generation order. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final avalanche so that neighbouring inputs (day 1, day 2) spread well.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}
