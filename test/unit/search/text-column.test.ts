import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROW_SEPARATOR, TextColumn, TextLayout } from '../../../electron/services/search/text-column.js';

/** The rows a plain includes() finds: what scan() must mark, whatever the texts hold. */
function expectedHits(texts: readonly string[], needle: string): number[] {
  return texts.flatMap((text, i) => (text.includes(needle) ? [i] : []));
}

function marked(hits: Uint8Array): number[] {
  return [...hits.keys()].filter((i) => hits[i] === 1);
}

// Short texts over few letters (and the separator, and an empty text) make needles that hit, miss and
// straddle the end of one row and the start of the next.
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_', '1', ROW_SEPARATOR), maxLength: 12 });
const needle = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_', '1'), minLength: 1, maxLength: 4 });

describe('TextColumn', () => {
  it('marks exactly the rows whose text holds the needle and counts them, never a match across two rows', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), needle, (texts, wanted) => {
        const hits = new Uint8Array(texts.length);
        const count = new TextColumn(texts).scan(wanted, hits);
        expect(marked(hits)).toEqual(expectedHits(texts, wanted));
        // The count is a search's total when nothing else filters (SortedRowIndex's #window).
        expect(count).toBe(expectedHits(texts, wanted).length);
      }),
      { numRuns: 400 },
    );
  });

  it('follows (and counts) rows changed and added after the layout, also past the number that lays the text out again', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 30 }),
        fc.array(fc.record({ at: fc.nat({ max: 60 }), text, add: fc.boolean() }), { maxLength: 40 }),
        needle,
        (start, edits, wanted) => {
          const texts = [...start];
          const column = new TextColumn(texts);
          for (const edit of edits) {
            if (edit.add) texts.push(edit.text);
            else texts[edit.at % texts.length] = edit.text;
            column.changed(edit.add ? texts.length - 1 : edit.at % texts.length);
          }
          const hits = new Uint8Array(texts.length);
          const count = column.scan(wanted, hits);
          expect(marked(hits)).toEqual(expectedHits(texts, wanted));
          expect(count).toBe(expectedHits(texts, wanted).length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lays the text out again once many rows changed, and still answers every row', () => {
    const texts = Array.from({ length: 3_000 }, (_, i) => `sc_${i}`);
    const column = new TextColumn(texts);
    for (let i = 0; i < 2_000; i += 1) {
      texts[i] = `renamed ${i}`;
      column.changed(i);
    }
    const hits = new Uint8Array(texts.length);
    column.scan('renamed', hits);
    expect(marked(hits)).toEqual(expectedHits(texts, 'renamed'));
    column.scan('sc_', hits);
    expect(marked(hits)).toEqual(expectedHits(texts, 'sc_'));
  });

  it('refuses needles that hold the separator or nothing (the index tests each row for those)', () => {
    expect(TextColumn.scannable('sc_1')).toBe(true);
    expect(TextColumn.scannable(`a${ROW_SEPARATOR}b`)).toBe(false);
    expect(TextColumn.scannable('')).toBe(false);
  });
});

describe('TextLayout (the texts laid out a piece at a time, by RowParts)', () => {
  it('lays the texts out as the column itself would, in pieces of a few thousand rows', () => {
    // Past one piece of 4,096 rows and at its edges, hostile texts among them (the separator, bidi marks, long names).
    const odd = ['__proto__', 'constructor', '\u202Eevil\u202C', 'x'.repeat(500), '', `a${ROW_SEPARATOR}b`];
    for (const rows of [0, 1, 4_095, 4_096, 4_097, 9_000]) {
      const texts = Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? (odd[i % odd.length] as string) : `row ${i} m5.large use1-az${i % 6}`));
      const layout = new TextLayout(rows);
      // done() is null before every add and after each but the last. Checked in a plain loop and asserted once: an
      // expect() a row (55,000 of them) took 4 of this test's 5 s at load 5, and the unit project's 5 s timeout
      // failed it at load 44 (suite13, suite14) with nothing wrong.
      const doneTooSoon: number[] = [];
      for (const [i, text] of texts.entries()) {
        if (layout.done() !== null) doneTooSoon.push(i);
        layout.add(text);
        if (i + 1 < rows && layout.done() !== null) doneTooSoon.push(i + 1);
      }
      expect(doneTooSoon).toEqual([]);
      const done = layout.done();
      expect(done?.starts.length).toBe(rows + 1);
      const ahead = new TextColumn(texts, done ?? undefined);
      const own = new TextColumn(texts);
      for (const wanted of ['row 4096', 'm5', 'evil', '__proto__', 'x'.repeat(40), 'b', 'zz']) {
        const [a, b] = [new Uint8Array(rows), new Uint8Array(rows)];
        expect(ahead.scan(wanted, a)).toBe(own.scan(wanted, b));
        expect(marked(a)).toEqual(expectedHits(texts, wanted));
      }
    }
  });
});
