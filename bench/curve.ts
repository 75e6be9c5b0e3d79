import type { Figure } from './figure.js';
import { okCell, textTable } from './support/figure-table.js';

/** Sizes of the curve (issue 25 item 3) by the signed-in user's policies: 10k and 100k, 1M with BENCH_1M=1. */
export const CURVE_SIZES = [10_000, 100_000, 1_000_000] as const;

/** The 1M bounds of the curve: no main-process stall over 200 ms, the keystroke p95 during a refresh under 100 ms. */
export const CURVE_1M = { stallMs: 200, keystrokeMs: 100 } as const;

/** A size as the curve names it: 10k, 100k, 1M. */
export function sizeLabel(policies: number): string {
  return policies >= 1_000_000 ? `${Math.round(policies / 100_000) / 10}M` : `${Math.round(policies / 1000)}k`;
}

/** The sizes a curve benchmark measures: `env` (comma separated) when set, else `fallback`, and 10k, 100k and 1M with BENCH_1M=1. */
export function curveSizes(env: string | undefined, fallback: readonly number[]): number[] {
  if (env) return env.split(',').map(Number);
  return process.env.BENCH_1M === '1' ? [...CURVE_SIZES] : [...fallback];
}

type Row = Figure & { readonly bench: string };

/**
 * The figures that name their size (Figure.curve), one table per figure with a line per size, so the same figure
 * reads across 10k, 100k and 1M; each line's budget is the one of its size (the 1M bounds at 1M).
 */
export function curveTables(rows: readonly Row[]): string[] {
  const byFigure = new Map<string, Row[]>();
  for (const row of rows) {
    if (!row.curve) continue;
    const key = `${row.bench}: ${row.curve.figure}`;
    byFigure.set(key, [...(byFigure.get(key) ?? []), row]);
  }
  const lines: string[] = [];
  for (const [title, sized] of byFigure) {
    const header = ['size', 'policies', 'value', 'unit', 'budget', 'ok', 'load avg (1 min)'];
    const table = [...sized]
      .sort((a, b) => (a.curve?.size ?? 0) - (b.curve?.size ?? 0))
      .map((r) => [
        sizeLabel(r.curve?.size ?? 0),
        (r.curve?.policies ?? r.curve?.size ?? 0).toLocaleString('en-US'),
        String(r.value),
        r.unit,
        r.budget ?? '',
        okCell(r),
        r.load ?? '',
      ]);
    lines.push('', `curve: ${title}`, ...textTable(header, table));
  }
  return lines;
}
