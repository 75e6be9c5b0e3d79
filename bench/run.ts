import { readdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { curveTables } from './curve.js';
import type { Benchmark, Figure } from './figure.js';
import { okCell, textTable } from './support/figure-table.js';

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
const table = rows.map((r) => [r.bench, r.name, String(r.value), r.unit, r.budget ?? '', okCell(r), r.load ?? '']);
for (const text of textTable(header, table)) console.log(text);
for (const text of curveTables(rows)) console.log(text);
