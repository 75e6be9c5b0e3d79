import { readdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { curveTables } from './curve.js';
import type { Benchmark, Figure } from './figure.js';

/**
 * Runs every bench/*.bench.ts (or those whose name contains the first
 * argument) one after another, and prints one table of figures.
 */
const filter = process.argv[2] ?? '';
const files = (await readdir('bench')).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();
const rows: Array<Figure & { bench: string }> = [];

for (const file of files) {
  const bench = file.replace(/\.bench\.ts$/, '');
  process.stderr.write(`running ${bench}…\n`);
  const module = (await import(pathToFileURL(join(process.cwd(), 'bench', file)).href)) as { default: Benchmark };
  for (const figure of await module.default()) rows.push({ ...figure, bench, load: figure.load ?? (loadavg()[0] as number).toFixed(1) });
}

const header = ['benchmark', 'figure', 'value', 'unit', 'budget', 'ok', 'load avg (1 min)'];
const table = rows.map((r) => [
  r.bench,
  r.name,
  String(r.value),
  r.unit,
  r.budget ?? '',
  r.withinBudget === undefined ? '' : r.withinBudget ? 'yes' : 'NO',
  r.load ?? '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] as string).length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table) console.log(line(row));
for (const text of curveTables(rows)) console.log(text);
