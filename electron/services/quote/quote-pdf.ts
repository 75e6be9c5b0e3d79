import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import { embeddedCharacters, quoteFontBytes } from './quote-fonts.js';
import { systemFallbackFont } from './system-fallback-font.js';
import { CANCELLATION_UNKNOWN, CURRENCY_NOT_STATED, quoteFeeLine, quoteMoney, quotePercent, quoteTotalLines, type Quote } from '../../../shared/quote/quote.js';

/**
 * The quote as a PDF, drawn with pdf-lib in the main process: the same in the
 * Electron app and the browser host, no browser needed, and fast enough to
 * make while the person waits (docs/quotes.md says why this route). Text is
 * real text (readers search and copy it); pages are A4 or Letter.
 */

const MARGIN = 50;
const SIZE = { title: 18, heading: 11, body: 9.5 };
const LINE = 1.35;

/** Invisible direction marks a pasted name may carry: they have no glyph and must not become "?". */
const DIRECTION_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export interface QuotePdf {
  readonly bytes: Uint8Array;
  /** Characters the PDF's font has no glyph for (quote-fonts.ts) were written as "?"; the e-mail text keeps them. */
  readonly replacedCharacters: boolean;
}

/** Where the fallback font comes from: the OS's (system-fallback-font.ts); a test names its own or none. */
export type FallbackFont = () => Promise<Uint8Array | null>;

/**
 * Drawn with PDF's standard Helvetica when it has every character (a few
 * kilobytes, fast); a quote with names it cannot draw is drawn again with the
 * embedded DejaVu Sans (quote-fonts.ts), several times slower to make; one with
 * characters DejaVu lacks too (CJK) once more, with the OS's font for those.
 */
export async function renderQuotePdf(quote: Quote, fallbackFont: FallbackFont = systemFallbackFont): Promise<QuotePdf> {
  const standard = await render(quote, { kind: 'standard' });
  if (!standard.replacedCharacters) return standard;
  const fallback = lacksAny(quote, await embeddedCharacters()) ? await fallbackFont() : null;
  // A font file the OS has but fontkit cannot read leaves the quote as DejaVu draws it.
  if (fallback) return render(quote, { kind: 'embedded', fallback }).catch(() => render(quote, { kind: 'embedded' }));
  return render(quote, { kind: 'embedded' });
}

/** Whether some character of the quote's text is not among these (its JSON holds every string of it, unescaped). */
function lacksAny(quote: Quote, characters: ReadonlySet<number>): boolean {
  for (const char of JSON.stringify(quote).replace(DIRECTION_MARKS, '')) if (!characters.has(char.codePointAt(0) ?? 0)) return true;
  return false;
}

type FontChoice = { readonly kind: 'standard' } | { readonly kind: 'embedded'; readonly fallback?: Uint8Array };

interface QuoteFonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly fallback: PDFFont | null;
}

async function embedFonts(doc: PDFDocument, fonts: FontChoice): Promise<QuoteFonts> {
  if (fonts.kind === 'standard') {
    const { StandardFonts } = await import('pdf-lib');
    return { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold), fallback: null };
  }
  doc.registerFontkit((await import('@pdf-lib/fontkit')).default);
  const bytes = await quoteFontBytes();
  // Subset: only the glyphs the quote uses are embedded, so a quote stays tens of kilobytes (a CJK font's too).
  return {
    regular: await doc.embedFont(bytes.regular, { subset: true }),
    bold: await doc.embedFont(bytes.bold, { subset: true }),
    fallback: fonts.fallback ? await doc.embedFont(fonts.fallback, { subset: true }) : null,
  };
}

async function render(quote: Quote, fonts: FontChoice): Promise<QuotePdf> {
  // Loaded with the first quote, not with the app: at start its module took ~0.5 s of a launch (issue 25).
  const { PDFDocument, PageSizes, rgb } = await import('pdf-lib');
  const colors = { text: rgb(0, 0, 0), muted: rgb(0.35, 0.35, 0.4) };
  const doc = await PDFDocument.create();
  doc.setTitle(`Quote for ${quote.customerName}`);
  doc.setAuthor(quote.accountManager);
  doc.setCreator('Capacity Desk');
  doc.setProducer('Capacity Desk');
  // Fixed dates keep the bytes of one quote the same however often it is made.
  const prepared = new Date(`${quote.preparedAt}T00:00:00Z`);
  doc.setCreationDate(prepared);
  doc.setModificationDate(prepared);
  const writer = new Writer(doc, quote.paper === 'A4' ? PageSizes.A4 : PageSizes.Letter, await embedFonts(doc, fonts), colors);

  writer.text(`Quote for ${quote.customerName}`, { font: 'bold', size: SIZE.title });
  writer.text(`Prepared ${quote.preparedAt} by ${quote.accountManager}. Valid until ${quote.validUntil}.`, { color: colors.muted });
  if (quote.currency === null) writer.text(CURRENCY_NOT_STATED, { color: colors.muted });
  writer.gap();

  quote.lines.forEach((line, index) => {
    writer.keepTogether(7 + 2 * line.timing.length);
    writer.text(`${index + 1}. ${line.policyName} (${line.cidrId})`, { font: 'bold', size: SIZE.heading });
    writer.text(`${line.instances}, ${line.platform}, zone ${line.zone}`);
    writer.text(`Window: ${line.window}`);
    writer.text(`Our price: ${quoteMoney(quote, line.ourPrice)}    Provider price: ${quoteMoney(quote, line.providerPrice)}`);
    writer.text(`Savings: ${quoteMoney(quote, line.savings)} (${quotePercent(line.savingsFraction)})`);
    writer.text(quoteFeeLine(quote, line), { color: colors.muted });
    for (const note of line.timing) writer.text(`Note: ${note}`);
    writer.gap();
  });

  const totals = quoteTotalLines(quote);
  writer.keepTogether(totals.length + 3);
  totals.forEach((line, index) => writer.text(line, index === 0 ? { font: 'bold', size: SIZE.heading } : {}));
  writer.text(`Against the provider's price ${quoteMoney(quote, quote.total.providerPrice)}: savings ${quoteMoney(quote, quote.total.savings)} (${quotePercent(quote.total.savingsFraction)})`);
  writer.gap();
  writer.keepTogether(quote.cancellation.length + 2);
  if (quote.cancellation.length > 0) {
    writer.text('Cancellation fees (of our price, by when a policy is canceled)', { font: 'bold', size: SIZE.heading });
    for (const line of quote.cancellation) writer.text(`- ${line}`);
  } else {
    writer.text(CANCELLATION_UNKNOWN);
  }
  writer.footer(`Quote for ${quote.customerName} - valid until ${quote.validUntil}`);
  return { bytes: await doc.save(), replacedCharacters: writer.replaced };
}

/** A piece of a line drawn in one font. */
interface Run {
  readonly text: string;
  readonly font: PDFFont;
}

/** Lines down the page, wrapped to its width, onto new pages as needed; each line in runs of the font that has its characters. */
class Writer {
  replaced = false;
  readonly #pages: PDFPage[] = [];
  #page: PDFPage;
  #y = 0;
  readonly #encodable: { regular: ReadonlySet<number>; bold: ReadonlySet<number>; fallback: ReadonlySet<number> };

  constructor(
    private readonly doc: PDFDocument,
    private readonly size: [number, number],
    private readonly fonts: QuoteFonts,
    private readonly colors: { readonly text: RGB; readonly muted: RGB },
  ) {
    this.#encodable = {
      regular: new Set(fonts.regular.getCharacterSet()),
      bold: new Set(fonts.bold.getCharacterSet()),
      fallback: new Set(fonts.fallback?.getCharacterSet() ?? []),
    };
    this.#page = this.#newPage();
  }

  text(raw: string, options: { font?: 'regular' | 'bold'; size?: number; color?: RGB } = {}): void {
    const face = options.font ?? 'regular';
    const size = options.size ?? SIZE.body;
    const width = this.size[0] - 2 * MARGIN;
    for (const line of this.#wrap(this.#safe(raw, face), face, size, width)) {
      if (this.#y - size * LINE < MARGIN + 20) this.#page = this.#newPage();
      this.#y -= size * LINE;
      this.#draw(this.#page, line, face, { x: MARGIN, y: this.#y, size, color: options.color ?? this.colors.text });
    }
  }

  gap(): void {
    this.#y -= SIZE.body * 0.8;
  }

  /** Starts a new page unless about `lines` body lines still fit, so a policy's block is not split. */
  keepTogether(lines: number): void {
    if (this.#y - lines * SIZE.body * LINE < MARGIN + 20) this.#page = this.#newPage();
  }

  footer(text: string): void {
    const safe = this.#safe(text, 'regular');
    this.#pages.forEach((page, index) => {
      this.#draw(page, `${safe} - page ${index + 1} of ${this.#pages.length}`, 'regular', { x: MARGIN, y: MARGIN - 10, size: 7.5, color: this.colors.muted });
    });
  }

  #newPage(): PDFPage {
    const page = this.doc.addPage(this.size);
    this.#pages.push(page);
    this.#y = this.size[1] - MARGIN;
    return page;
  }

  #draw(page: PDFPage, line: string, face: 'regular' | 'bold', at: { x: number; y: number; size: number; color: RGB }): void {
    let x = at.x;
    for (const run of this.#runs(line, face)) {
      page.drawText(run.text, { x, y: at.y, size: at.size, font: run.font, color: at.color });
      x += run.font.widthOfTextAtSize(run.text, at.size);
    }
  }

  /** The text the fonts can draw: direction marks dropped, other characters neither font has as "?". */
  #safe(text: string, face: 'regular' | 'bold'): string {
    let out = '';
    for (const char of text.replace(DIRECTION_MARKS, '').replace(/[^\S\u00a0]/g, ' ')) {
      const code = char.codePointAt(0) ?? 0;
      if (this.#encodable[face].has(code) || this.#encodable.fallback.has(code)) out += char;
      else {
        out += '?';
        this.replaced = true;
      }
    }
    return out;
  }

  /** A safe line split where the font changes: the face's own font first, the fallback for what it lacks. */
  #runs(line: string, face: 'regular' | 'bold'): Run[] {
    const runs: { text: string; font: PDFFont }[] = [];
    for (const char of line) {
      const font = this.#encodable[face].has(char.codePointAt(0) ?? 0) || !this.fonts.fallback ? this.fonts[face] : this.fonts.fallback;
      const last = runs[runs.length - 1];
      if (last?.font === font) last.text += char;
      else runs.push({ text: char, font });
    }
    return runs;
  }

  #width(text: string, face: 'regular' | 'bold', size: number): number {
    return this.#runs(text, face).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
  }

  #wrap(text: string, face: 'regular' | 'bold', size: number, width: number): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of text.split(' ')) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (this.#width(candidate, face, size) <= width) {
        current = candidate;
        continue;
      }
      if (current !== '') lines.push(current);
      current = word;
      // A single word wider than the page (a 500-character name, a CJK name without spaces): cut it.
      // Cut between characters, never inside one written as two UTF-16 units; the longest part that fits
      // found by halving (a CJK name is one long word, and each width is a layout of the whole part).
      while (this.#width(current, face, size) > width) {
        const chars = Array.from(current);
        let fits = 1;
        let over = chars.length;
        while (over - fits > 1) {
          const middle = Math.floor((fits + over) / 2);
          if (this.#width(chars.slice(0, middle).join(''), face, size) <= width) fits = middle;
          else over = middle;
        }
        lines.push(chars.slice(0, fits).join(''));
        current = chars.slice(fits).join('');
      }
    }
    if (current !== '' || lines.length === 0) lines.push(current);
    return lines;
  }
}
