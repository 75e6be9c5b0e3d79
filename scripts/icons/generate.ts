import { iconLayers, iconSvg } from './design.js';
import { encodeIcns, ICNS_TYPES } from './icns.js';
import { encodeIco } from './ico.js';
import { encodePng } from './png.js';
import { render, type Image } from './raster.js';

/** Bitmap sizes of the Windows icon; 256 is stored as PNG. */
const ICO_SIZES = [16, 24, 32, 48, 256] as const;

/**
 * Every icon file electron-builder reads from build/, by file name: the 1024 px
 * PNG (Linux, and the source of truth), the .ico (Windows and NSIS), the .icns
 * (macOS) and the SVG they are drawn from. Deterministic, so a test can prove
 * the committed files are what this code draws.
 */
export function generateIcons(): Map<string, Buffer> {
  const layers = iconLayers();
  const sizes = new Set<number>([...ICO_SIZES, ...ICNS_TYPES.map((t) => t.size)]);
  const images = new Map<number, Image>();
  for (const size of sizes) images.set(size, render(size, layers));
  const pngs = new Map<number, Buffer>();
  for (const [size, image] of images) pngs.set(size, encodePng(image));

  const ico = encodeIco(
    ICO_SIZES.map((size) =>
      size === 256 ? { image: images.get(size)!, format: 'png' as const, png: pngs.get(size)! } : { image: images.get(size)!, format: 'bmp' as const },
    ),
  );
  return new Map([
    ['icon.png', pngs.get(1024)!],
    ['icon.ico', ico],
    ['icon.icns', encodeIcns(pngs)],
    ['icon.svg', Buffer.from(iconSvg(), 'utf8')],
  ]);
}
