/** Small helpers for the hand-made SVG charts (no chart library: a few shapes are all they need). */

/**
 * A round number at or above `value` that splits into four readable ticks
 * (1.2 gives 0.3 steps, 2 gives 0.5…), close enough that the longest bar
 * fills most of the width.
 */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/** `count` evenly spaced ticks from 0 to max, both included. */
export function ticks(max: number, count: number): number[] {
  return Array.from({ length: count + 1 }, (_, i) => (max * i) / count);
}

/** Maps [0, domainMax] onto [0, rangeMax]; a zero domain maps everything to 0. */
export function linear(domainMax: number, rangeMax: number): (value: number) => number {
  return (value) => (domainMax > 0 ? (value / domainMax) * rangeMax : 0);
}
