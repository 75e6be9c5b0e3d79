/** A column of <VirtualTable>. */
export interface TableColumn {
  readonly id: string;
  readonly label: string;
  /** A CSS grid track, e.g. "minmax(8rem, 1fr)" or "7rem". */
  readonly width: string;
  readonly align?: 'start' | 'end';
  /** Shown to screen readers instead of `label` when the header is abbreviated. */
  readonly srLabel?: string;
}
