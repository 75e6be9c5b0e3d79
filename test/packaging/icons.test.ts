import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateIcons } from '../../scripts/icons/generate.js';
import { icnsTypes } from '../../scripts/icons/icns.js';
import { icoSizes } from '../../scripts/icons/ico.js';
import { encodePng, pngSize } from '../../scripts/icons/png.js';
import { render, roundedRectDistance } from '../../scripts/icons/raster.js';
import { ROOT } from './support/builder-config.js';

describe('app icons', () => {
  it('the committed icons are exactly what scripts/make-icons.ts draws (run `npx tsx scripts/make-icons.ts` after a design change)', async () => {
    for (const [name, data] of generateIcons()) {
      const committed = await readFile(join(ROOT, 'build', name));
      expect(committed.equals(data), `build/${name} is stale`).toBe(true);
    }
  });

  it('stay small', async () => {
    for (const name of ['icon.png', 'icon.ico', 'icon.icns']) {
      expect((await readFile(join(ROOT, 'build', name))).length).toBeLessThan(64 * 1024);
    }
  });

  it('the formats are what each OS reads', () => {
    const icons = generateIcons();
    expect(pngSize(icons.get('icon.png')!)).toEqual({ width: 1024, height: 1024 });
    expect(icoSizes(icons.get('icon.ico')!)).toEqual([16, 24, 32, 48, 256]);
    expect(icnsTypes(icons.get('icon.icns')!)).toEqual(['icp4', 'icp5', 'icp6', 'ic07', 'ic08', 'ic09', 'ic10']);
    expect(icons.get('icon.svg')!.toString('utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1024" height="1024"/);
  });

  it('the rasteriser draws a shape with anti-aliased edges and a transparent outside', () => {
    const square = render(8, [{ distance: (u, v) => roundedRectDistance(u, v, { x: 0.25, y: 0.25, width: 0.5, height: 0.5, radius: 0 }), paint: () => ({ r: 255, g: 0, b: 0, a: 1 }) }]);
    const alpha = (x: number, y: number) => square.pixels[(y * 8 + x) * 4 + 3];
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(4, 4)).toBe(255);
    expect(square.pixels.subarray((4 * 8 + 4) * 4, (4 * 8 + 4) * 4 + 3)).toEqual(new Uint8Array([255, 0, 0]));
    const edge = render(10, [{ distance: (u) => u - 0.55, paint: () => ({ r: 0, g: 0, b: 0, a: 1 }) }]);
    expect(edge.pixels[5 * 4 + 3]).toBe(128);
  });

  it('the PNG encoder writes a valid header and rejects nothing it made', () => {
    const png = encodePng({ size: 3, pixels: new Uint8Array(3 * 3 * 4).fill(200) });
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(pngSize(png)).toEqual({ width: 3, height: 3 });
    expect(pngSize(Buffer.from('not a png at all, just text here'))).toBeNull();
  });
});
