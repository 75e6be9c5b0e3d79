import { loadavg } from 'node:os';

/**
 * Words typed a letter a query into `ask` (an empty text after each word, as a cleared box), `rounds` times; the CPU
 * time (process.cpuUsage) of each key after the first `warm` rounds, and a line of their median, p95 and mean with
 * the load beside (bench/search-match.ts, bench/no-customer-keystroke.ts).
 */
export async function cpuAKey(words: readonly string[], rounds: number, warm: number, ask: (text: string) => unknown): Promise<string> {
  const costs: number[] = [];
  const load = loadavg()[0]?.toFixed(1);
  for (let round = 0; round < rounds; round += 1) {
    for (const word of words) {
      for (let end = 1; end <= word.length; end += 1) {
        const before = process.cpuUsage();
        await ask(word.slice(0, end));
        const used = process.cpuUsage(before);
        if (round >= warm) costs.push((used.user + used.system) / 1000);
      }
      await ask('');
    }
  }
  costs.sort((a, b) => a - b);
  const at = (q: number) => costs[Math.min(costs.length - 1, Math.floor(q * costs.length))]?.toFixed(2);
  const mean = (costs.reduce((a, b) => a + b, 0) / costs.length).toFixed(2);
  return `CPU a key median ${at(0.5)} ms, p95 ${at(0.95)} ms, mean ${mean} ms (${costs.length} keys, load ${load}-${loadavg()[0]?.toFixed(1)})`;
}
