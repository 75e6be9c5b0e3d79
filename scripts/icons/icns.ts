/** The PNG-bearing icon types of Apple's .icns and the pixel size each holds. */
export const ICNS_TYPES = [
  { type: 'icp4', size: 16 },
  { type: 'icp5', size: 32 },
  { type: 'icp6', size: 64 },
  { type: 'ic07', size: 128 },
  { type: 'ic08', size: 256 },
  { type: 'ic09', size: 512 },
  { type: 'ic10', size: 1024 },
] as const;

/** Builds an .icns whose entries are PNGs (what macOS has read since 10.7). */
export function encodeIcns(pngBySize: ReadonlyMap<number, Buffer>): Buffer {
  const entries = ICNS_TYPES.map(({ type, size }) => {
    const png = pngBySize.get(size);
    if (!png) throw new Error(`the .icns needs a ${size}px PNG`);
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const body = Buffer.concat(entries);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

/** The entry types of an .icns, in file order; empty when it is not one. */
export function icnsTypes(data: Buffer): string[] {
  if (data.length < 8 || data.toString('ascii', 0, 4) !== 'icns' || data.readUInt32BE(4) !== data.length) return [];
  const types: string[] = [];
  for (let at = 8; at + 8 <= data.length; ) {
    const length = data.readUInt32BE(at + 4);
    if (length < 8) return [];
    types.push(data.toString('ascii', at, at + 4));
    at += length;
  }
  return types;
}
