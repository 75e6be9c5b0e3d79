/** One measured figure, as every benchmark returns them. */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The target, in words (e.g. "<= 150 KB"); empty when the figure is for context. */
  readonly budget?: string;
  /** Whether the figure meets its budget; undefined when there is none. */
  readonly withinBudget?: boolean;
  /** The 1-minute load average(s) while it was measured (one per run); run.ts adds the current one when absent. */
  readonly load?: string;
  /**
   * For a figure of the curve (issue 25 item 3): the figure's name without its size, the size asked for (the
   * signed-in user's policies: 10,000, 100,000, 1,000,000) and the policies synced; run.ts prints a table per figure.
   */
  readonly curve?: { readonly figure: string; readonly size: number; readonly policies?: number };
}

export type Benchmark = () => Promise<Figure[]>;
