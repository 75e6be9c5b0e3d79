import { readFileSync } from 'node:fs';

/**
 * How long each vitest file took in a full run (seconds, by path from the repository's root), to share the files out
 * between npm test's vitest lanes by time rather than by count. Regenerate it from a run's reports:
 * `npx tsx scripts/test-durations.ts artifacts/vitest-*.json`. A file not in it (a new one) weighs the median.
 */
export const FILE_DURATIONS = 'test/support/file-durations.json';

export type Durations = Readonly<Record<string, number>>;

export function readDurations(file = FILE_DURATIONS): Durations {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] >= 0));
  } catch {
    // No table (or one that does not parse): every file weighs alike, the split is by count.
    return {};
  }
}

/**
 * Shares `keys` out into `count` shards of about equal weight: the heaviest first, each onto the lightest shard
 * so far (ties: the lower index). The result depends only on the keys and the weights, not on their order, so
 * separate processes given the same files agree on it, and every key lands in exactly one shard.
 */
/**
 * Each file's weight: its measured seconds, or the median of the measured ones for a file the table lacks. Own
 * entries only: a file named like an Object.prototype member ("constructor") is a file like any other.
 */
export function fileWeights(keys: readonly string[], durations: Durations): (key: string) => number {
  const measured = (key: string) => (Object.hasOwn(durations, key) ? durations[key] : undefined);
  const known = keys.map(measured).filter((seconds): seconds is number => seconds !== undefined).sort((a, b) => a - b);
  const unknownWeight = known.length > 0 ? (known[Math.floor(known.length / 2)] ?? 1) : 1;
  return (key) => measured(key) ?? unknownWeight;
}

/**
 * Shares `keys` out into `count` shards of about equal weight: the heaviest first, each onto the lightest shard
 * so far (ties: the lower index). The result depends only on the keys and the weights, not on their order, so
 * separate processes given the same files agree on it, and every key lands in exactly one shard.
 */
export function balancedShards(keys: readonly string[], count: number, durations: Durations): string[][] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`a shard count must be a whole number of at least 1, not ${count}`);
  const weightOf = fileWeights(keys, durations);
  const ordered = [...new Set(keys)].sort((a, b) => weightOf(b) - weightOf(a) || (a < b ? -1 : a > b ? 1 : 0));
  const shards = Array.from({ length: count }, () => ({ keys: [] as string[], weight: 0 }));
  for (const key of ordered) {
    const lightest = shards.reduce((best, shard) => (shard.weight < best.weight ? shard : best));
    lightest.keys.push(key);
    lightest.weight += weightOf(key);
  }
  return shards.map((shard) => shard.keys);
}

/**
 * The shard `which` ("1/2") names, of `files`, shared out by their measured durations: how npm test's browser
 * lanes (PW_SHARD, playwright.config.ts) each take their spec files. Playwright's own --shard cuts the tests, in
 * file order, into runs of equal count, and the specs at the front of the alphabet (the a11y matrix, the capacity
 * views) are the long ones.
 */
export function shardOf(files: readonly string[], which: string, durations: Durations): string[] {
  const parts = /^(\d+)\/(\d+)$/.exec(which);
  const index = Number(parts?.[1]);
  const count = Number(parts?.[2]);
  if (!parts || index < 1 || index > count) throw new Error(`a shard is written as i/n with 1 <= i <= n, e.g. 1/2; not "${which}"`);
  return balancedShards(files, count, durations)[index - 1] ?? [];
}
