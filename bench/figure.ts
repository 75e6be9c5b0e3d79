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
}

export type Benchmark = () => Promise<Figure[]>;
