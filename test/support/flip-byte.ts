import { open } from 'node:fs/promises';

/**
 * Flips one bit of one byte of a file in place (same size, as a failing disk or a tamperer would): at a
 * fraction of its size when `where` is below 1, else at that byte offset.
 */
export async function flipByte(path: string, where = 0.5): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    const { size } = await handle.stat();
    const at = where < 1 ? Math.floor(size * where) : where;
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] = (byte[0] ?? 0) ^ 0x01;
    await handle.write(byte, 0, 1, at);
  } finally {
    await handle.close();
  }
}
