/**
 * The table directory of a TrueType/OpenType font file (sfnt), read and
 * written again: enough to take one font out of a collection and to lay out
 * its glyph table the way pdf-lib's subsetter needs (font-for-pdf.ts).
 */

export interface Sfnt {
  /** The outline kind: 0x00010000 or 'true' for TrueType, 'OTTO' for CFF. */
  readonly version: number;
  readonly tables: Map<string, Uint8Array>;
}

export class DamagedFont extends RangeError {
  constructor(message = 'the font file is cut short or damaged') {
    super(message);
  }
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}

function within(bytes: Uint8Array, offset: number, length: number): void {
  if (offset + length > bytes.byteLength) throw new DamagedFont();
}

/** The fonts a file holds: one, or each of a collection's (`ttcf`), by the offset of its directory. */
export function fontOffsets(bytes: Uint8Array): number[] {
  within(bytes, 0, 12);
  if (tag(bytes, 0) !== 'ttcf') return [0];
  const count = view(bytes).getUint32(8);
  within(bytes, 12, 4 * count);
  return Array.from({ length: count }, (_, i) => view(bytes).getUint32(12 + 4 * i));
}

export function readSfnt(bytes: Uint8Array, start: number): Sfnt {
  within(bytes, start, 12);
  const data = view(bytes);
  const count = data.getUint16(start + 4);
  within(bytes, start + 12, 16 * count);
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i += 1) {
    const record = start + 12 + 16 * i;
    const offset = data.getUint32(record + 8);
    const length = data.getUint32(record + 12);
    within(bytes, offset, length);
    tables.set(tag(bytes, record), bytes.subarray(offset, offset + length));
  }
  return { version: data.getUint32(start), tables };
}

function checksum(table: Uint8Array): number {
  const padded = new Uint8Array((table.byteLength + 3) & ~3);
  padded.set(table);
  const data = view(padded);
  let sum = 0;
  for (let at = 0; at < padded.byteLength; at += 4) sum = (sum + data.getUint32(at)) >>> 0;
  return sum;
}

export function writeSfnt(font: Sfnt): Uint8Array {
  const tags = [...font.tables.keys()].sort();
  let size = 12 + 16 * tags.length;
  const at = tags.map((name) => {
    const offset = size;
    // Each table starts on a 4-byte boundary, as the format asks.
    size += (font.tables.get(name)!.byteLength + 3) & ~3;
    return offset;
  });
  const out = new Uint8Array(size);
  const data = view(out);
  const power = 2 ** Math.floor(Math.log2(Math.max(1, tags.length)));
  data.setUint32(0, font.version);
  data.setUint16(4, tags.length);
  data.setUint16(6, power * 16);
  data.setUint16(8, Math.log2(power));
  data.setUint16(10, tags.length * 16 - power * 16);
  tags.forEach((name, i) => {
    const table = font.tables.get(name)!;
    const record = 12 + 16 * i;
    for (let c = 0; c < 4; c += 1) out[record + c] = name.charCodeAt(c);
    data.setUint32(record + 4, checksum(table));
    data.setUint32(record + 8, at[i]!);
    data.setUint32(record + 12, table.byteLength);
    out.set(table, at[i]!);
  });
  return out;
}
