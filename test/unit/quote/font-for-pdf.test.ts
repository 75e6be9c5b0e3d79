import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { fontForPdf } from '../../../electron/services/quote/font-for-pdf.js';
import { fontOffsets, readSfnt, writeSfnt } from '../../../electron/services/quote/sfnt.js';

/**
 * The OS's CJK fonts made ready for pdf-lib, read back by fontkit (which the app did not write): a
 * collection (WenQuanYi Micro Hei) and a font with glyphs of odd length (Droid Sans Fallback), both installed
 * by scripts/setup.sh as Debian desktops have them.
 */
const COLLECTION = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const ODD_GLYPHS = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';

type Font = ReturnType<typeof fontkit.create>;
const svg = (font: Font, char: string) => font.glyphForCodePoint(char.codePointAt(0)!).path.toSVG();

/** What pdf-lib's subsetter writes for these characters, read back. */
async function subsetOf(font: Font, text: string): Promise<{ subset: Font; ids: number[] }> {
  const builder = font.createSubset();
  const ids = font.layout(text).glyphs.map((glyph) => builder.includeGlyph(glyph));
  const chunks: Uint8Array[] = [];
  await new Promise<void>((done) => {
    const stream = builder.encodeStream();
    stream.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    stream.on('end', () => done());
  });
  return { subset: fontkit.create(Buffer.concat(chunks)), ids };
}

describe('a font from the OS made ready for the PDF', () => {
  it('from a collection: its first font, whole (name, glyph count, outlines)', async () => {
    const bytes = new Uint8Array(await readFile(COLLECTION));
    const original = (fontkit.create(Buffer.from(bytes)) as unknown as { fonts: Font[] }).fonts[0]!;
    const ready = fontkit.create(Buffer.from(fontForPdf(bytes)!));
    expect(ready.postscriptName).toBe(original.postscriptName);
    expect(ready.numGlyphs).toBe(original.numGlyphs);
    for (const char of '北风贸易株式会社さくら서울Ltd') expect(svg(ready, char)).toBe(svg(original, char));
  });

  it('with glyphs of odd length: the subset pdf-lib makes draws every glyph as the font does', async () => {
    const text = '東京海上北风';
    const original = fontkit.create(await readFile(ODD_GLYPHS));
    const ready = fontkit.create(Buffer.from(fontForPdf(new Uint8Array(await readFile(ODD_GLYPHS)))!));
    const { subset, ids } = await subsetOf(ready, text);
    [...text].forEach((char, i) => expect(subset.getGlyph(ids[i]!).path.toSVG()).toBe(svg(original, char)));
    // The file as the OS has it: the subset's glyphs after one of odd length cannot be read (what drew boxes).
    const broken = await subsetOf(original, text);
    expect(() => [...text].map((_, i) => broken.subset.getGlyph(broken.ids[i]!).path.toSVG())).toThrow();
  });

  it('a single TrueType font keeps every table but the glyph layout; CFF outlines are refused', async () => {
    const dejavu = new Uint8Array(await readFile(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
    const before = readSfnt(dejavu, 0);
    const after = readSfnt(fontForPdf(dejavu)!, 0);
    expect([...after.tables.keys()].sort()).toEqual([...before.tables.keys()].sort());
    for (const [name, table] of before.tables) {
      if (!['glyf', 'loca', 'head'].includes(name)) expect(Buffer.from(after.tables.get(name)!).equals(table), name).toBe(true);
    }
    const cff = writeSfnt({ version: 0x4f54544f, tables: new Map([['CFF ', new Uint8Array(8)], ['head', before.tables.get('head')!]]) });
    expect(fontForPdf(cff)).toBeNull();
  });

  it('refuses a file cut short with a clear message', async () => {
    const bytes = new Uint8Array(await readFile(COLLECTION));
    expect(fontOffsets(bytes)).toHaveLength(2);
    for (const cut of [10, 100, 4096]) expect(() => fontForPdf(bytes.subarray(0, cut))).toThrow(/cut short or damaged/);
  });
});
