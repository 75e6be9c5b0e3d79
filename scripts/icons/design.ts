import { hex, mix, roundedRectDistance, type Layer } from './raster.js';

/**
 * Capacity Desk's icon: a blue tile with three rising capacity columns, the
 * tallest in the accent colour. Geometry in unit coordinates, shared by the
 * raster sizes and the SVG so they never drift apart.
 */
export const TILE = { x: 0.0625, y: 0.0625, width: 0.875, height: 0.875, radius: 0.19 } as const;
export const TILE_TOP = '#2F6BF0';
export const TILE_BOTTOM = '#1B2F7A';
export const COLUMN = '#FFFFFF';
export const ACCENT = '#5EEAD4';

const BASELINE = 0.75;
const COLUMN_WIDTH = 0.14;
const COLUMN_RADIUS = 0.035;
export const COLUMNS = [
  { x: 0.235, height: 0.26, colour: COLUMN },
  { x: 0.43, height: 0.38, colour: COLUMN },
  { x: 0.625, height: 0.5, colour: ACCENT },
].map((column) => ({
  x: column.x,
  y: BASELINE - column.height,
  width: COLUMN_WIDTH,
  height: column.height,
  radius: COLUMN_RADIUS,
  colour: column.colour,
}));

export function iconLayers(): Layer[] {
  const top = hex(TILE_TOP);
  const bottom = hex(TILE_BOTTOM);
  const tile: Layer = {
    distance: (u, v) => roundedRectDistance(u, v, TILE),
    paint: (_u, v) => mix(top, bottom, (v - TILE.y) / TILE.height),
  };
  const columns = COLUMNS.map<Layer>((column) => {
    const colour = hex(column.colour);
    return { distance: (u, v) => roundedRectDistance(u, v, column), paint: () => colour };
  });
  return [tile, ...columns];
}

/** The same icon as SVG, for places that take a vector (and for reviewers). */
export function iconSvg(): string {
  const px = (value: number) => Number((value * 1024).toFixed(2));
  const rect = (r: { x: number; y: number; width: number; height: number; radius: number }, fill: string) =>
    `<rect x="${px(r.x)}" y="${px(r.y)}" width="${px(r.width)}" height="${px(r.height)}" rx="${px(r.radius)}" fill="${fill}"/>`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">',
    '  <defs>',
    `    <linearGradient id="tile" x1="0" y1="${px(TILE.y)}" x2="0" y2="${px(TILE.y + TILE.height)}" gradientUnits="userSpaceOnUse">`,
    `      <stop offset="0" stop-color="${TILE_TOP}"/>`,
    `      <stop offset="1" stop-color="${TILE_BOTTOM}"/>`,
    '    </linearGradient>',
    '  </defs>',
    `  ${rect(TILE, 'url(#tile)')}`,
    ...COLUMNS.map((column) => `  ${rect(column, column.colour)}`),
    '</svg>',
    '',
  ].join('\n');
}
