import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceedsJsonBytes } from '../../../electron/services/ipc/input-size.js';

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('exceedsJsonBytes', () => {
  it('never calls a JSON value larger than its JSON, nor smaller than a sixth of it (escapes are not counted)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const real = jsonBytes(value);
        expect(exceedsJsonBytes(value, real)).toBe(false);
        if (real >= 12) expect(exceedsJsonBytes(value, Math.floor(real / 6) - 1)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('counts the bytes of UTF-8, not the characters', () => {
    const euros = '€'.repeat(1000);
    expect(exceedsJsonBytes(euros, 2_000)).toBe(true);
    expect(exceedsJsonBytes(euros, 3_002)).toBe(false);
  });

  it('refuses a structured clone that cycles instead of walking it forever', () => {
    const loop: Record<string, unknown> = { name: '__proto__' };
    loop.self = loop;
    const ring: unknown[] = [];
    ring.push(ring);
    expect(exceedsJsonBytes(loop, 256 * 1024)).toBe(true);
    expect(exceedsJsonBytes(ring, 256 * 1024)).toBe(true);
  });

});
