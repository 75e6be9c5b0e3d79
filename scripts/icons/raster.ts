/**
 * A tiny analytic rasteriser for the app icon: shapes are signed-distance
 * functions, so every size is drawn from geometry (crisp at 16 px, smooth at
 * 1024 px) without an image library or a browser.
 */

export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

export interface Image {
  readonly size: number;
  /** Straight (not premultiplied) RGBA, row by row from the top. */
  readonly pixels: Uint8Array;
}

/** Distance from a point to a rounded rectangle; negative inside. Units are the caller's. */
export function roundedRectDistance(
  x: number,
  y: number,
  rect: { readonly x: number; readonly y: number; readonly width: number; readonly height: number; readonly radius: number },
): number {
  const halfW = rect.width / 2;
  const halfH = rect.height / 2;
  const qx = Math.abs(x - (rect.x + halfW)) - (halfW - rect.radius);
  const qy = Math.abs(y - (rect.y + halfH)) - (halfH - rect.radius);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  const inside = Math.min(Math.max(qx, qy), 0);
  return outside + inside - rect.radius;
}

export interface Layer {
  /** Signed distance in unit coordinates (0..1 across the canvas). */
  readonly distance: (u: number, v: number) => number;
  /** Colour at a point in unit coordinates. */
  readonly paint: (u: number, v: number) => Rgba;
}

/** Draws the layers bottom to top at one size, anti-aliased by pixel coverage. */
export function render(size: number, layers: readonly Layer[]): Image {
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const u = (px + 0.5) / size;
      const v = (py + 0.5) / size;
      // Premultiplied accumulation so edges blend without dark fringes.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const layer of layers) {
        const coverage = clamp01(0.5 - layer.distance(u, v) * size);
        if (coverage === 0) continue;
        const colour = layer.paint(u, v);
        const alpha = coverage * colour.a;
        r = colour.r * alpha + r * (1 - alpha);
        g = colour.g * alpha + g * (1 - alpha);
        b = colour.b * alpha + b * (1 - alpha);
        a = alpha + a * (1 - alpha);
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        pixels[i] = Math.round(r / a);
        pixels[i + 1] = Math.round(g / a);
        pixels[i + 2] = Math.round(b / a);
      }
      pixels[i + 3] = Math.round(a * 255);
    }
  }
  return { size, pixels };
}

export function hex(colour: string, alpha = 1): Rgba {
  const value = Number.parseInt(colour.replace('#', ''), 16);
  return { r: (value >> 16) & 0xff, g: (value >> 8) & 0xff, b: value & 0xff, a: alpha };
}

export function mix(from: Rgba, to: Rgba, t: number): Rgba {
  const k = clamp01(t);
  return {
    r: from.r + (to.r - from.r) * k,
    g: from.g + (to.g - from.g) * k,
    b: from.b + (to.b - from.b) * k,
    a: from.a + (to.a - from.a) * k,
  };
}

function clamp01(value: number): number {
  return value <= 0 ? 0 : value >= 1 ? 1 : value;
}
