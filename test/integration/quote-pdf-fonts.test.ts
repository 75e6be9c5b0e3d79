/**
 * Names no embedded font can draw (Chinese, Japanese, Korean) drawn with the
 * OS's font, read back by poppler (pdftotext, pdffonts): a reader the app did
 * not write. The machine's CJK fonts are WenQuanYi Micro Hei, a TrueType
 * collection, and Droid Sans Fallback (scripts/setup.sh installs both, as
 * Debian desktops have them).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { fontForPdf } from '../../electron/services/quote/font-for-pdf.js';
import { renderQuotePdf } from '../../electron/services/quote/quote-pdf.js';
import { fallbackFontPaths, firstReadableFont, systemFallbackFont } from '../../electron/services/quote/system-fallback-font.js';
import type { Quote } from '../../shared/quote/quote.js';

const run = promisify(execFile);
const COLLECTION = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const ODD_GLYPHS = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capacity-desk-quote-fonts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function quoteFor(customerName: string): Quote {
  const line = {
    cidrId: 'cidr-0001',
    policyName: `${customerName} reserve`,
    instances: '4 × m5.large',
    platform: 'Linux/UNIX',
    zone: 'use1-az1',
    window: '2026-12-01 09:00 to 2027-12-01 09:00',
    ourPrice: 1200,
    providerPrice: 1500,
    savings: 300,
    savingsFraction: 0.2,
    cardFee: 36,
    bankFee: 12,
    timing: [],
  };
  return {
    customerName,
    accountManager: '山田 花子',
    validUntil: '2026-12-31',
    preparedAt: '2026-11-27',
    currency: 'USD',
    lines: [line],
    total: { ourPrice: 1200, providerPrice: 1500, savings: 300, savingsFraction: 0.2 },
    paysBy: 'card',
    toPay: [{ paysBy: 'card', fees: 36, toPay: 1236, noFeeStated: [] }],
    cancellation: [],
    paper: 'A4',
  };
}

async function read(bytes: Uint8Array, name: string): Promise<{ text: string; fonts: string }> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const [text, fonts] = await Promise.all([run('pdftotext', [path, '-']), run('pdffonts', [path])]);
  return { text: text.stdout, fonts: fonts.stdout };
}

describe('a quote for a customer named in Chinese, Japanese or Korean', () => {
  it('draws the names with the OS font, read back as written, Latin text still in DejaVu', async () => {
    expect(await firstReadableFont([COLLECTION]), `${COLLECTION} is missing: run scripts/setup.sh (fonts-wqy-microhei)`).not.toBeNull();
    const name = '北风贸易 株式会社さくら 서울상사 Ltd.';
    const pdf = await renderQuotePdf(quoteFor(name), () => firstReadableFont([COLLECTION]));
    expect(pdf.replacedCharacters).toBe(false);
    const { text, fonts } = await read(pdf.bytes, 'cjk.pdf');
    expect(text).toContain(`Quote for ${name}`);
    expect(text).toContain('Prepared 2026-11-27 by 山田 花子');
    expect(text).not.toContain('?');
    expect(fonts).toContain('DejaVuSans');
    expect(fonts).toContain('WenQuanYi');
  });

  it('wraps a long name without spaces between characters, never inside one', async () => {
    // U+20000 is written as two UTF-16 units: a cut between them would leave two "?".
    const name = `${'北风'.repeat(60)}${'𠀀'.repeat(3)}${'贸易'.repeat(60)}`;
    const pdf = await renderQuotePdf(quoteFor(name), () => firstReadableFont([COLLECTION]));
    const { text } = await read(pdf.bytes, 'long.pdf');
    const title = text.split('Prepared')[0]!.replace(/\s+/g, '');
    expect(title.startsWith(`Quotefor${'北风'.repeat(60)}`)).toBe(true);
    expect(title).toContain('贸易'.repeat(60));
    // The font may lack U+20000 (then each is one "?", said); it is never split into two.
    const middle = title.slice(`Quotefor${'北风'.repeat(60)}`.length, -'贸易'.repeat(60).length);
    expect(['𠀀𠀀𠀀', '???']).toContain(middle);
    expect(pdf.replacedCharacters).toBe(middle === '???');
  });

  it('with no such font on the system, or one that cannot be read, writes "?" and says so', async () => {
    for (const fallback of [async () => null, async () => new Uint8Array(await readFile(COLLECTION)).subarray(0, 4096)]) {
      const pdf = await renderQuotePdf(quoteFor('北风 Łódź'), fallback);
      expect(pdf.replacedCharacters).toBe(true);
      const { text } = await read(pdf.bytes, 'none.pdf');
      expect(text).toContain('Quote for ?? Łódź');
    }
  });

  it('what neither font has is still "?" and said', async () => {
    const pdf = await renderQuotePdf(quoteFor('北风 \u{13000}'), () => firstReadableFont([COLLECTION]));
    expect(pdf.replacedCharacters).toBe(true);
    expect((await read(pdf.bytes, 'hieroglyph.pdf')).text).toContain('Quote for 北风 ?');
  });

  it('poppler draws the subset the PDF carries exactly as it draws the whole font', async () => {
    const text = '東京海上 北风贸易';
    const page = async (font: Uint8Array, subset: boolean, name: string) => {
      const doc = await PDFDocument.create();
      doc.registerFontkit(fontkit);
      doc.addPage([300, 60]).drawText(text, { x: 10, y: 20, size: 20, font: await doc.embedFont(font, { subset }) });
      const path = join(dir, name);
      await writeFile(path, await doc.save());
      const { stdout, stderr } = await run('pdftoppm', ['-r', '72', '-gray', '-singlefile', path], { encoding: 'buffer', maxBuffer: 1 << 24 });
      expect(stderr.toString()).toBe('');
      return stdout;
    };
    // The font whole, as the OS has it (no subset: nothing of the app's in the way), against what a quote embeds.
    const whole = await page(new Uint8Array(await readFile(ODD_GLYPHS)), false, 'whole.pdf');
    const embedded = await page(fontForPdf(new Uint8Array(await readFile(ODD_GLYPHS)))!, true, 'subset.pdf');
    expect(whole.subarray(whole.length - 300 * 60).some((pixel) => pixel < 128)).toBe(true);
    expect(embedded.equals(whole)).toBe(true);
  });

  it('is looked for where each OS keeps its CJK fonts, and found on this one', async () => {
    expect(fallbackFontPaths('win32', { WINDIR: 'D:\\Win' })).toContain(join('D:\\Win', 'Fonts', 'msyh.ttc'));
    expect(fallbackFontPaths('darwin', {})).toContain('/System/Library/Fonts/PingFang.ttc');
    expect(fallbackFontPaths('linux', {})).toContain(COLLECTION);
    expect(await firstReadableFont([join(dir, 'missing.ttc'), COLLECTION])).not.toBeNull();
    expect(await firstReadableFont([join(dir, 'missing.ttc')])).toBeNull();
    expect(await systemFallbackFont()).not.toBeNull();
  });
});
