import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import { quoteFontBytes } from './quote-fonts.js';
import { CANCELLATION_UNKNOWN, CURRENCY_NOT_STATED, quoteMoney, quotePercent, type Quote } from '../../../shared/quote/quote.js';

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

/**
 * Drawn with PDF's standard Helvetica when it has every character (a few
 * kilobytes, fast); a quote with names it cannot draw is drawn again with the
 * embedded DejaVu Sans (quote-fonts.ts), several times slower to make.
 */
export async function renderQuotePdf(quote: Quote): Promise<QuotePdf> {
  const standard = await render(quote, 'standard');
  return standard.replacedCharacters ? render(quote, 'embedded') : standard;
}

async function embedFonts(doc: PDFDocument, fonts: 'standard' | 'embedded'): Promise<{ regular: PDFFont; bold: PDFFont }> {
  if (fonts === 'standard') {
    const { StandardFonts } = await import('pdf-lib');
    return { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  }
  doc.registerFontkit((await import('@pdf-lib/fontkit')).default);
  const bytes = await quoteFontBytes();
  // Subset: only the glyphs the quote uses are embedded, so a quote stays tens of kilobytes.
  return { regular: await doc.embedFont(bytes.regular, { subset: true }), bold: await doc.embedFont(bytes.bold, { subset: true }) };
}

async function render(quote: Quote, fonts: 'standard' | 'embedded'): Promise<QuotePdf> {
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
  const { regular, bold } = await embedFonts(doc, fonts);
  const writer = new Writer(doc, quote.paper === 'A4' ? PageSizes.A4 : PageSizes.Letter, regular, bold, colors);

  writer.text(`Quote for ${quote.customerName}`, { font: 'bold', size: SIZE.title });
  writer.text(`Prepared ${quote.preparedAt} by ${quote.accountManager}. Valid until ${quote.validUntil}.`, { color: colors.muted });
  if (quote.currency === null) writer.text(CURRENCY_NOT_STATED, { color: colors.muted });
  writer.gap();

  quote.lines.forEach((line, index) => {
    writer.keepTogether(7);
    writer.text(`${index + 1}. ${line.policyName} (${line.cidrId})`, { font: 'bold', size: SIZE.heading });
    writer.text(`${line.instances}, ${line.platform}, zone ${line.zone}`);
    writer.text(`Window: ${line.window}`);
    writer.text(`Our price: ${quoteMoney(quote, line.ourPrice)}    Provider price: ${quoteMoney(quote, line.providerPrice)}`);
    writer.text(`Savings: ${quoteMoney(quote, line.savings)} (${quotePercent(line.savingsFraction)})`);
    writer.text(`Processing fees: card ${quoteMoney(quote, line.cardFee)}, bank account ${quoteMoney(quote, line.bankFee)}`, { color: colors.muted });
    writer.gap();
  });

  writer.keepTogether(4);
  writer.text(`Total: ${quoteMoney(quote, quote.total.ourPrice)}`, { font: 'bold', size: SIZE.heading });
  writer.text(
    `Provider price ${quoteMoney(quote, quote.total.providerPrice)}; savings ${quoteMoney(quote, quote.total.savings)} (${quotePercent(quote.total.savingsFraction)})`,
  );
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

/** Lines down the page, wrapped to its width, onto new pages as needed. */
class Writer {
  replaced = false;
  readonly #pages: PDFPage[] = [];
  #page: PDFPage;
  #y = 0;
  readonly #encodable: { regular: ReadonlySet<number>; bold: ReadonlySet<number> };

  constructor(
    private readonly doc: PDFDocument,
    private readonly size: [number, number],
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly colors: { readonly text: RGB; readonly muted: RGB },
  ) {
    this.#encodable = { regular: new Set(regular.getCharacterSet()), bold: new Set(bold.getCharacterSet()) };
    this.#page = this.#newPage();
  }

  text(raw: string, options: { font?: 'regular' | 'bold'; size?: number; color?: RGB } = {}): void {
    const fontName = options.font ?? 'regular';
    const font = fontName === 'bold' ? this.bold : this.regular;
    const size = options.size ?? SIZE.body;
    const width = this.size[0] - 2 * MARGIN;
    for (const line of this.#wrap(this.#safe(raw, fontName), font, size, width)) {
      if (this.#y - size * LINE < MARGIN + 20) this.#page = this.#newPage();
      this.#y -= size * LINE;
      this.#page.drawText(line, { x: MARGIN, y: this.#y, size, font, color: options.color ?? this.colors.text });
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
      page.drawText(`${safe} - page ${index + 1} of ${this.#pages.length}`, { x: MARGIN, y: MARGIN - 10, size: 7.5, font: this.regular, color: this.colors.muted });
    });
  }

  #newPage(): PDFPage {
    const page = this.doc.addPage(this.size);
    this.#pages.push(page);
    this.#y = this.size[1] - MARGIN;
    return page;
  }

  /** The text the font can draw: direction marks dropped, other characters it lacks as "?". */
  #safe(text: string, font: 'regular' | 'bold'): string {
    let out = '';
    for (const char of text.replace(DIRECTION_MARKS, '').replace(/[^\S\u00a0]/g, ' ')) {
      const code = char.codePointAt(0) ?? 0;
      if (this.#encodable[font].has(code)) out += char;
      else {
        out += '?';
        this.replaced = true;
      }
    }
    return out;
  }

  #wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of text.split(' ')) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        current = candidate;
        continue;
      }
      if (current !== '') lines.push(current);
      current = word;
      // A single word wider than the page (a 500-character name): cut it.
      while (font.widthOfTextAtSize(current, size) > width) {
        let cut = current.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > width) cut -= 1;
        lines.push(current.slice(0, cut));
        current = current.slice(cut);
      }
    }
    if (current !== '' || lines.length === 0) lines.push(current);
    return lines;
  }
}
