/** One measured figure, as every benchmark returns them. */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The target, in words (e.g. "<= 150 KB"); empty when the figure is for context. */
  readonly budget?: string;
  /** Whether the figure meets its budget; undefined when there is none. */
  readonly withinBudget?: boolean;
}

export type Benchmark = () => Promise<Figure[]>;
