/** Between two rows' texts; a needle holding it could match across rows, so such a needle is never scanned for here. */
export const ROW_SEPARATOR = '\u0000';
/** Rows changed since the text was laid out are checked one by one; past this many, the text is laid out again. */
const MAX_CHANGED = 1_024;

/**
 * Every row's search text laid end to end in one string, so that a search
 * over the whole list reads memory in order. Measured at 100,000 policies:
 * the texts kept one per row sit scattered among the rows in the heap, and a
 * search testing each in turn spent 5-10 ms waiting on memory; one pass of
 * indexOf over the laid-out text takes 1-2 ms, in any sort order.
 */
export class TextColumn {
  readonly #texts: readonly string[];
  #laidOut = '';
  /** Where each laid-out row starts; one more entry than rows, for the end of the last. */
  #starts = new Uint32Array(1);
  /** Rows whose text changed (or that were added) after the layout: checked one by one. */
  #changed = new Set<number>();

  /**
   * Reads `texts` in place; say which rows changed with changed(). `layout`: the texts already laid out
   * (TextLayout, in steps), else they are laid out now, in one piece.
   */
  constructor(texts: readonly string[], layout?: { readonly laidOut: string; readonly starts: Uint32Array<ArrayBuffer> }) {
    this.#texts = texts;
    if (layout && layout.starts.length === texts.length + 1) {
      this.#laidOut = layout.laidOut;
      this.#starts = layout.starts;
    } else this.#layOut();
  }

  /** The text of a row changed, or a row was added at this index. */
  changed(index: number): void {
    this.#changed.add(index);
  }

  /** Whether scan() can answer this needle (a needle holding the separator could match across two rows). */
  static scannable(needle: string): boolean {
    return needle.length > 0 && !needle.includes(ROW_SEPARATOR);
  }

  /** Sets hits[row] to 1 for every row whose text holds the needle, 0 for the others; returns how many hold it. */
  scan(needle: string, hits: Uint8Array): number {
    if (this.#changed.size > MAX_CHANGED) this.#layOut();
    hits.fill(0);
    const text = this.#laidOut;
    const starts = this.#starts;
    const laidOutRows = starts.length - 1;
    let row = 0;
    let from = 0;
    let count = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0) break;
      while ((starts[row + 1] as number) <= at) row += 1;
      hits[row] = 1;
      count += 1;
      // One hit is enough: the search goes on from the next row.
      row += 1;
      if (row >= laidOutRows) break;
      from = starts[row] as number;
    }
    for (const index of this.#changed) {
      const hit = (this.#texts[index] as string).includes(needle) ? 1 : 0;
      count += hit - (hits[index] as number);
      hits[index] = hit;
    }
    return count;
  }

  #layOut(): void {
    const texts = this.#texts;
    const starts = new Uint32Array(texts.length + 1);
    let at = 0;
    for (let i = 0; i < texts.length; i += 1) {
      starts[i] = at;
      at += (texts[i] as string).length + 1;
    }
    starts[texts.length] = at;
    this.#laidOut = texts.join(ROW_SEPARATOR) + ROW_SEPARATOR;
    this.#starts = starts;
    this.#changed.clear();
  }
}

/** Rows one step of TextLayout lays out. */
const LAYOUT_STEP_ROWS = 4_096;

/**
 * The texts laid out as TextColumn lays them out, a piece of LAYOUT_STEP_ROWS rows at a time as they come (add),
 * so whoever works them out can spread it over turns of the event loop: at 1,000,000 rows the one join took
 * tens of ms in one piece. done() joins the pieces (a few hundred long strings, not a million short ones).
 */
export class TextLayout {
  readonly starts: Uint32Array<ArrayBuffer>;
  readonly #pieces: string[] = [];
  #pending: string[] = [];
  #rows = 0;
  #at = 0;

  constructor(rows: number) {
    this.starts = new Uint32Array(rows + 1);
  }

  add(text: string): void {
    this.starts[this.#rows] = this.#at;
    this.#rows += 1;
    this.#at += text.length + 1;
    this.#pending.push(text);
    if (this.#pending.length === LAYOUT_STEP_ROWS) this.#flush();
  }

  /** The layout once every row was added; null before. */
  done(): { laidOut: string; starts: Uint32Array<ArrayBuffer> } | null {
    if (this.#rows !== this.starts.length - 1) return null;
    this.#flush();
    this.starts[this.#rows] = this.#at;
    return { laidOut: this.#pieces.join(''), starts: this.starts };
  }

  #flush(): void {
    if (this.#pending.length > 0) this.#pieces.push(this.#pending.join(ROW_SEPARATOR) + ROW_SEPARATOR);
    this.#pending = [];
  }
}
