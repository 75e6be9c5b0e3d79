import type { Image } from './raster.js';

export interface IcoEntry {
  readonly image: Image;
  /** 256 px goes in as PNG (small); smaller sizes as bitmaps, which every Windows tool reads (NSIS included). */
  readonly format: 'png' | 'bmp';
  readonly png?: Buffer;
}

/** Builds a Windows .ico from several sizes. */
export function encodeIco(entries: readonly IcoEntry[]): Buffer {
  const bodies = entries.map((entry) => (entry.format === 'png' ? pngBody(entry) : bitmapBody(entry.image)));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(entries.length, 4);
  const directory = Buffer.alloc(16 * entries.length);
  let offset = header.length + directory.length;
  entries.forEach((entry, index) => {
    const at = index * 16;
    const size = entry.image.size;
    directory[at] = size >= 256 ? 0 : size; // 0 means 256
    directory[at + 1] = size >= 256 ? 0 : size;
    directory[at + 2] = 0; // no palette
    directory[at + 3] = 0;
    directory.writeUInt16LE(1, at + 4); // planes
    directory.writeUInt16LE(32, at + 6); // bits per pixel
    directory.writeUInt32LE(bodies[index]!.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += bodies[index]!.length;
  });
  return Buffer.concat([header, directory, ...bodies]);
}

function pngBody(entry: IcoEntry): Buffer {
  if (!entry.png) throw new Error(`the ${entry.image.size}px ICO entry needs its PNG`);
  return entry.png;
}

/** A 32-bit BGRA DIB, bottom-up, followed by the 1-bit AND mask the format requires. */
function bitmapBody(image: Image): Buffer {
  const { size, pixels } = image;
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(size, 4);
  info.writeInt32LE(size * 2, 8); // colour rows + mask rows
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  const colour = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = ((size - 1 - y) * size + x) * 4;
      const to = (y * size + x) * 4;
      colour[to] = pixels[from + 2]!;
      colour[to + 1] = pixels[from + 1]!;
      colour[to + 2] = pixels[from]!;
      colour[to + 3] = pixels[from + 3]!;
    }
  }
  const maskStride = Math.ceil(size / 32) * 4;
  const mask = Buffer.alloc(maskStride * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const transparent = pixels[((size - 1 - y) * size + x) * 4 + 3] === 0;
      if (transparent) mask[y * maskStride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return Buffer.concat([info, colour, mask]);
}

/** The sizes an .ico holds, read from its directory (0 means 256). */
export function icoSizes(data: Buffer): number[] {
  if (data.length < 6 || data.readUInt16LE(0) !== 0 || data.readUInt16LE(2) !== 1) return [];
  const count = data.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => data[6 + index * 16] || 256);
}
