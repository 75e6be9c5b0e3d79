import type { Figure } from '../figure.js';

/** The "ok" cell of a figure: yes, NO, or empty when it has no budget. */
export function okCell(figure: Pick<Figure, 'withinBudget'>): string {
  return figure.withinBudget === undefined ? '' : figure.withinBudget ? 'yes' : 'NO';
}

/** A plain-text table (the header, a rule, then each row), every column as wide as its widest cell. */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}
