/** Pure arithmetic of a virtualized list of fixed-height rows. */

export interface RowRange {
  /** First row index, inclusive. */
  readonly start: number;
  /** Last row index, exclusive. */
  readonly end: number;
}

/** The rows within the viewport (`overscan` = 0) or a little beyond it. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan = 0,
): RowRange {
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  return {
    start: clamp(first - overscan, 0, rowCount),
    end: clamp(Math.max(last, first + 1) + overscan, 0, rowCount),
  };
}

/**
 * The scrollTop that brings row `index` fully into view, or null when it
 * already is (so keyboard moves inside the viewport never jump the list).
 */
export function scrollTopToReveal(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number | null {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return null;
}

/** 1-based numbers of the server pages that hold the rows of `range`. */
export function pagesOfRange(range: RowRange, pageSize: number): number[] {
  if (range.end <= range.start || pageSize <= 0) return [];
  const first = Math.floor(range.start / pageSize) + 1;
  const last = Math.floor((range.end - 1) / pageSize) + 1;
  const pages: number[] = [];
  for (let page = first; page <= last; page++) pages.push(page);
  return pages;
}

export type GridKey = 'ArrowDown' | 'ArrowUp' | 'PageDown' | 'PageUp' | 'Home' | 'End';

/** The row a navigation key moves to, from `current` (-1 = none yet). */
export function moveIndex(key: GridKey, current: number, rowCount: number, rowsPerPage: number): number {
  if (rowCount <= 0) return -1;
  const from = current < 0 ? -1 : current;
  const step = Math.max(1, rowsPerPage - 1);
  switch (key) {
    case 'ArrowDown':
      return clamp(from + 1, 0, rowCount - 1);
    case 'ArrowUp':
      return clamp(from < 0 ? 0 : from - 1, 0, rowCount - 1);
    case 'PageDown':
      return clamp(from + step, 0, rowCount - 1);
    case 'PageUp':
      return clamp(from - step, 0, rowCount - 1);
    case 'Home':
      return 0;
    case 'End':
      return rowCount - 1;
  }
}

export function isGridKey(key: string): key is GridKey {
  return key === 'ArrowDown' || key === 'ArrowUp' || key === 'PageDown' || key === 'PageUp' || key === 'Home' || key === 'End';
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
