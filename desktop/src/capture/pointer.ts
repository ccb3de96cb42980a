/**
 * The mouse pointer drawn into a captured picture (issue 26, "the app sees
 * the screen"): X11 and macOS leave it out of the pixels they give, so the
 * capturer blends a picture of it in, for the technician to see where the
 * customer points. Windows draws its own with `DrawIconEx` instead.
 */
import type { CapturedImage } from "./capturer.ts";

/**
 * A pointer's picture and where it is: `pixels` are `width` × `height`
 * 32-bit ARGB values premultiplied by alpha, row after row; the hot spot
 * (`xhot`, `yhot`, px inside the picture) lies at (`x`, `y`), px in the
 * coordinates of whatever the caller draws into (see `drawCursor`).
 */
export type CursorSprite = {
  x: number;
  y: number;
  xhot: number;
  yhot: number;
  width: number;
  height: number;
  pixels: Uint32Array;
};

/**
 * Blends `cursor` (ARGB premultiplied) into `image` (BGRX) with its hot spot
 * at pixel (cursor.x, cursor.y), the image's top-left corner being pixel
 * (originX, originY) of the same coordinates (X11: the root window's; macOS:
 * the picture's own, origin 0, 0). Parts outside the image are skipped; the
 * X byte is left alone.
 */
export function drawCursor(image: CapturedImage, cursor: CursorSprite, originX: number, originY: number): void {
  const left = cursor.x - cursor.xhot - originX;
  const top = cursor.y - cursor.yhot - originY;
  const { data, stride } = image;
  const fromRow = Math.max(0, -top);
  const toRow = Math.min(cursor.height, image.height - top);
  const fromColumn = Math.max(0, -left);
  const toColumn = Math.min(cursor.width, image.width - left);
  for (let row = fromRow; row < toRow; row++) {
    let offset = (top + row) * stride + (left + fromColumn) * 4;
    for (let column = fromColumn; column < toColumn; column++, offset += 4) {
      const pixel = cursor.pixels[row * cursor.width + column]!;
      const alpha = pixel >>> 24;
      if (alpha === 0) continue;
      const red = (pixel >>> 16) & 0xff;
      const green = (pixel >>> 8) & 0xff;
      const blue = pixel & 0xff;
      if (alpha === 0xff) {
        data[offset] = blue;
        data[offset + 1] = green;
        data[offset + 2] = red;
      } else {
        const keep = 255 - alpha;
        // Premultiplied alpha: result = cursor + screen × (1 − alpha).
        data[offset] = Math.min(255, blue + Math.floor((data[offset]! * keep + 127) / 255));
        data[offset + 1] = Math.min(255, green + Math.floor((data[offset + 1]! * keep + 127) / 255));
        data[offset + 2] = Math.min(255, red + Math.floor((data[offset + 2]! * keep + 127) / 255));
      }
    }
  }
}

/** The classic arrow, 12 × 19 at scale 1: B black outline, W white inside, space transparent; hot spot at its tip. */
const ARROW = [
  "B",
  "BB",
  "BWB",
  "BWWB",
  "BWWWB",
  "BWWWWB",
  "BWWWWWB",
  "BWWWWWWB",
  "BWWWWWWWB",
  "BWWWWWWWWB",
  "BWWWWWWWWWB",
  "BWWWWWWBBBBB",
  "BWWWBWWB",
  "BWWBBWWB",
  "BWB  BWWB",
  "BB   BWWB",
  "B     BWWB",
  "      BWWB",
  "       BB",
];
const ARROW_WIDTH = 12;
const ARROW_COLOURS: Record<string, number> = { B: 0xff000000, W: 0xffffffff };
const arrows = new Map<number, CursorSprite>();

/**
 * A plain arrow pointer, `scale` device pixels per point (an integer ≥ 1:
 * 2 on a Retina display), its hot spot at the tip, placed at (0, 0): the
 * caller spreads it with its own `x`/`y`. Used where the system gives no
 * picture of its pointer (macOS' `CGDisplayCreateImage`). Cached per scale;
 * `pixels` are shared, never to be written.
 */
export function arrowCursor(scale: number): CursorSprite {
  const factor = Math.min(8, Math.max(1, Math.round(scale)));
  const known = arrows.get(factor);
  if (known) return known;
  const width = ARROW_WIDTH * factor;
  const height = ARROW.length * factor;
  const pixels = new Uint32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = ARROW[Math.floor(y / factor)]!;
    for (let x = 0; x < width; x++) pixels[y * width + x] = ARROW_COLOURS[row[Math.floor(x / factor)] ?? " "] ?? 0;
  }
  const arrow = { x: 0, y: 0, xhot: 0, yhot: 0, width, height, pixels };
  arrows.set(factor, arrow);
  return arrow;
}
