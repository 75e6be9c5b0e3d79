import { DamagedFont, fontOffsets, readSfnt, writeSfnt, type Sfnt } from './sfnt.js';

/**
 * A font file from the OS made ready for pdf-lib's subsetter, or null when
 * that subsetter cannot embed it whole:
 * - a collection (`.ttc`, how most CJK fonts ship) is cut to its first font:
 *   fontkit embeds single fonts only;
 * - CFF outlines (Noto Sans CJK, Hiragino) are refused: fontkit's subset of
 *   them is a font poppler calls invalid and does not draw;
 * - each glyph's data is laid out at an even length with a long index: the
 *   subsetter writes a short index (offsets halved) whenever the subset is
 *   small, which shifts every glyph after one of odd length (Droid Sans
 *   Fallback's drew as empty boxes).
 */
export function fontForPdf(bytes: Uint8Array): Uint8Array | null {
  const font = readSfnt(bytes, fontOffsets(bytes)[0] ?? 0);
  if (!font.tables.has('glyf') || !font.tables.has('loca')) return null;
  return writeSfnt(withEvenGlyphs(font));
}

function withEvenGlyphs(font: Sfnt): Sfnt {
  const head = font.tables.get('head');
  const maxp = font.tables.get('maxp');
  const glyf = font.tables.get('glyf')!;
  const loca = font.tables.get('loca')!;
  if (!head || head.byteLength < 54 || !maxp || maxp.byteLength < 6) throw new DamagedFont();
  const longIndex = new DataView(head.buffer, head.byteOffset).getInt16(50) === 1;
  const glyphs = new DataView(maxp.buffer, maxp.byteOffset).getUint16(4);
  const index = new DataView(loca.buffer, loca.byteOffset, loca.byteLength);
  if (loca.byteLength < (glyphs + 1) * (longIndex ? 4 : 2)) throw new DamagedFont();
  const offsetOf = (i: number) => (longIndex ? index.getUint32(4 * i) : index.getUint16(2 * i) * 2);

  const parts: Uint8Array[] = [];
  const newIndex = new Uint8Array(4 * (glyphs + 1));
  const newIndexData = new DataView(newIndex.buffer);
  let size = 0;
  for (let i = 0; i < glyphs; i += 1) {
    const start = offsetOf(i);
    const end = offsetOf(i + 1);
    if (end < start || end > glyf.byteLength) throw new DamagedFont();
    newIndexData.setUint32(4 * i, size);
    parts.push(glyf.subarray(start, end));
    size += (end - start + 1) & ~1;
  }
  newIndexData.setUint32(4 * glyphs, size);
  const newGlyf = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    newGlyf.set(part, at);
    at += (part.byteLength + 1) & ~1;
  }
  const newHead = head.slice();
  new DataView(newHead.buffer).setInt16(50, 1);
  const tables = new Map(font.tables);
  tables.set('glyf', newGlyf);
  tables.set('loca', newIndex);
  tables.set('head', newHead);
  return { version: font.version, tables };
}
