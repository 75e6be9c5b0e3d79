import { crc32, deflateSync } from 'node:zlib';
import type { Image } from './raster.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes 8-bit RGBA as PNG; each row uses the filter that makes it smallest. */
export function encodePng(image: Image): Buffer {
  const { size, pixels } = image;
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  const candidates = [0, 1, 2].map(() => Buffer.alloc(stride));
  for (let y = 0; y < size; y++) {
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const above = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const left = i >= 4 ? row[i - 4]! : 0;
      const up = above ? above[i]! : 0;
      candidates[0]![i] = row[i]!;
      candidates[1]![i] = (row[i]! - left) & 0xff;
      candidates[2]![i] = (row[i]! - up) & 0xff;
    }
    let best = 0;
    let bestScore = Number.POSITIVE_INFINITY;
    candidates.forEach((candidate, filter) => {
      let score = 0;
      for (const byte of candidate) score += byte < 128 ? byte : 256 - byte;
      if (score < bestScore) {
        bestScore = score;
        best = filter;
      }
    });
    raw[y * (stride + 1)] = best;
    candidates[best]!.copy(raw, y * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** Width and height from a PNG's header; null when it is not a PNG. */
export function pngSize(data: Buffer): { width: number; height: number } | null {
  if (data.length < 24 || !data.subarray(0, 8).equals(SIGNATURE) || data.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}
